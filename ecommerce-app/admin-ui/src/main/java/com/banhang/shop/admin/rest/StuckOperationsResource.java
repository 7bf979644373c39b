package com.banhang.shop.admin.rest;

import com.banhang.shop.admin.application.KeyDetails;
import com.banhang.shop.admin.application.KeyLookup;
import com.banhang.shop.admin.application.KeyRef;
import com.banhang.shop.admin.application.StuckFilter;
import com.banhang.shop.admin.application.StuckOperation;
import com.banhang.shop.admin.application.StuckOperationDetail;
import com.banhang.shop.admin.application.StuckOperations;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code /api/v1/admin/stuck-operations} and {@code /api/v1/admin/keys}: what the console's Stuck
 * operations and Key lookup views show, for automation. Operator role only (web.xml).
 */
@Path("/v1/admin")
@RolesAllowed("operator")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "operator", description = "Operator API: stuck keys, resolution, audit")
public class StuckOperationsResource {

  @Inject StuckOperations stuck;
  @Inject KeyLookup lookup;

  /** One page of processing keys, oldest first. */
  public record StuckPage(int total, int offset, List<StuckOperation> items) {}

  @GET
  @Path("stuck-operations")
  @Operation(
      summary = "Keys still processing",
      description =
          "Filtered by tenant, operation, lastCheck (a reconciliation finding, or NEVER) and"
              + " minAge (ISO-8601, default PT2M); paged by offset and limit (at most 500).")
  public Response list(
      @QueryParam("tenant") String tenant,
      @QueryParam("operation") String operation,
      @QueryParam("lastCheck") String lastCheck,
      @QueryParam("minAge") String minAge,
      @QueryParam("offset") Integer offset,
      @QueryParam("limit") Integer limit) {
    Duration age;
    try {
      age = minAge == null ? StuckOperations.DEFAULT_MIN_AGE : Duration.parse(minAge);
    } catch (DateTimeParseException e) {
      return OperatorProblems.badRequest("minAge must be an ISO-8601 duration such as PT2M");
    }
    if (age.isNegative()) {
      return OperatorProblems.badRequest("minAge must not be negative");
    }
    PageRequest page = PageRequest.of(offset, limit);
    if (page == null) {
      return OperatorProblems.badRequest(PageRequest.OUT_OF_RANGE);
    }
    StuckFilter filter = new StuckFilter(tenant, operation, lastCheck, age);
    return Response.ok(
            new StuckPage(
                stuck.count(filter),
                page.offset(),
                stuck.page(filter, page.offset(), page.limit())))
        .build();
  }

  @GET
  @Path("stuck-operations/{tenant}/{operation}/{key}")
  @Operation(summary = "One processing key with its payment")
  public Response detail(
      @PathParam("tenant") String tenant,
      @PathParam("operation") String operation,
      @PathParam("key") String key) {
    return stuck
        .detail(new KeyRef(tenant, operation, key))
        .map(StuckOperationsResource::ok)
        .orElseGet(() -> OperatorProblems.notFound("no processing key " + key + " of " + tenant));
  }

  @GET
  @Path("keys/{tenant}/{operation}/{key}")
  @Operation(
      summary = "Look a key up, whatever its state",
      description = "The stored body has money and card fields masked.")
  public Response key(
      @PathParam("tenant") String tenant,
      @PathParam("operation") String operation,
      @PathParam("key") String key) {
    return lookup
        .find(new KeyRef(tenant, operation, key))
        .map(StuckOperationsResource::ok)
        .orElseGet(() -> OperatorProblems.notFound("no key " + key + " of " + tenant));
  }

  private static Response ok(StuckOperationDetail detail) {
    return Response.ok(detail).build();
  }

  private static Response ok(KeyDetails details) {
    return Response.ok(details).build();
  }
}
