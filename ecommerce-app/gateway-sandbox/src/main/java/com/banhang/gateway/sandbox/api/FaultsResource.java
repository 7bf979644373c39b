package com.banhang.gateway.sandbox.api;

import com.banhang.gateway.sandbox.fault.FaultControl;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code /v1/faults}: the faults that {@code POST /v1/charges} injects, read and changed at run
 * time. Every change re-seeds the random source, so the decisions that follow repeat from run to
 * run.
 */
@Path("/faults")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class FaultsResource {

  @Inject FaultControl faults;

  /** The settings in force. */
  @GET
  public FaultSettingsJson current() {
    return FaultSettingsJson.of(faults.current());
  }

  /** Replaces the settings; members left out take the configured defaults. */
  @PUT
  public FaultSettingsJson replace(String body) {
    return FaultSettingsJson.of(faults.replace(FaultSettingsReader.read(body, faults.defaults())));
  }

  /** Returns to the configured defaults. */
  @DELETE
  public FaultSettingsJson reset() {
    return FaultSettingsJson.of(faults.reset());
  }
}
