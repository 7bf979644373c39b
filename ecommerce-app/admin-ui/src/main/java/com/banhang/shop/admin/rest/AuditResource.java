package com.banhang.shop.admin.rest;

import com.banhang.shop.admin.application.AuditEntry;
import com.banhang.shop.admin.application.AuditLog;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code GET /api/v1/admin/audit}: the operator actions, newest first. Read only: the audit has no
 * method that changes or removes an entry, so PUT and DELETE answer 405.
 */
@Path("/v1/admin/audit")
@RolesAllowed("operator")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "operator")
public class AuditResource {

  @Inject AuditLog audit;

  /** One page of entries. */
  public record AuditPage(int total, int offset, List<AuditEntry> items) {}

  @GET
  @Operation(
      summary = "Operator actions, newest first",
      description = "q searches operator, action, tenant, key, reason, result and detail.")
  public Response search(
      @QueryParam("q") String text,
      @QueryParam("offset") Integer offset,
      @QueryParam("limit") Integer limit) {
    PageRequest page = PageRequest.of(offset, limit);
    if (page == null) {
      return OperatorProblems.badRequest(PageRequest.OUT_OF_RANGE);
    }
    return Response.ok(
            new AuditPage(
                audit.count(text), page.offset(), audit.page(text, page.offset(), page.limit())))
        .build();
  }
}
