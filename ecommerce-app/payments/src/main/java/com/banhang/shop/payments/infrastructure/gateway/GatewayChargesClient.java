package com.banhang.shop.payments.infrastructure.gateway;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * The processor's HTTP API (the gateway sandbox implements it). Configured under the key {@code
 * gateway}: {@code gateway/mp-rest/url}, {@code .../connectTimeout}, {@code .../readTimeout}.
 * Answers are read as raw responses, because every status means something here. Every call carries
 * the shop's API key ({@link Credentials}); TLS trust and the client certificate are server.xml's
 * {@code gatewaySSLConfig} (docs/payments.md, "The processor connection").
 */
@RegisterRestClient(configKey = "gateway")
@RegisterProvider(GatewayChargesClient.Credentials.class)
@Path("/v1/charges")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public interface GatewayChargesClient {

  @POST
  Response create(@HeaderParam("Idempotency-Key") String gatewayKey, GatewayChargeBody body);

  @GET
  Response findByKey(@QueryParam("idempotencyKey") String gatewayKey);

  @GET
  @Path("/{id}")
  Response findById(@PathParam("id") String chargeId);

  /** The body of a charge request, as the processor names its fields. */
  record GatewayChargeBody(
      long amount, String currency, String orderReference, String paymentMethod) {}

  /**
   * Sends the shop's API key to the processor on every call, charges, lookups and the readiness
   * probe alike: {@code Authorization: Bearer <payments.gateway.api-key>} (environment variable
   * {@code PAYMENTS_GATEWAY_API_KEY}, docs/configuration.md). Without a key nothing is added (the
   * development sandbox asks for none). The key is never logged: it is not part of any message the
   * gateway classes write.
   */
  class Credentials implements ClientRequestFilter {

    static final String API_KEY = "payments.gateway.api-key";

    @Override
    public void filter(ClientRequestContext request) {
      apiKey()
          .ifPresent(
              key -> request.getHeaders().putSingle(HttpHeaders.AUTHORIZATION, "Bearer " + key));
    }

    /** Read on every call, so that a rotated key (a changed environment) needs no redeploy. */
    static Optional<String> apiKey() {
      return ConfigProvider.getConfig(Credentials.class.getClassLoader())
          .getOptionalValue(API_KEY, String.class)
          .map(String::trim)
          .filter(key -> !key.isEmpty());
    }
  }
}
