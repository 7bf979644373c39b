package com.banhang.idempotency.internal;

import com.banhang.idempotency.ProblemDetails;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Schema;

/**
 * Documents the answers the library adds to every {@code @Idempotent} operation, found by {@link
 * IdempotentEndpoints}: 429 {@code too-many-new-keys} with {@code Retry-After}. Register it with
 * {@code mp.openapi.filter=com.banhang.idempotency.internal.IdempotencyOpenApiFilter}.
 */
public class IdempotencyOpenApiFilter implements OASFilter {

  @Override
  public void filterOpenAPI(OpenAPI openAPI) {
    if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
      return;
    }
    Set<IdempotentEndpoints.Endpoint> endpoints = IdempotentEndpoints.endpoints();
    for (Map.Entry<String, PathItem> path : openAPI.getPaths().getPathItems().entrySet()) {
      Map<PathItem.HttpMethod, Operation> operations = path.getValue().getOperations();
      if (operations == null) {
        continue;
      }
      operations.forEach(
          (verb, operation) -> {
            if (isIdempotent(endpoints, verb.name(), path.getKey())) {
              addTooManyNewKeys(operation);
            }
          });
    }
  }

  /** The documented path may carry the application's path in front of the resource's template. */
  static boolean isIdempotent(
      Set<IdempotentEndpoints.Endpoint> endpoints, String verb, String documentedPath) {
    String documented = IdempotentEndpoints.template(documentedPath);
    return endpoints.stream()
        .anyMatch(
            e ->
                e.httpMethod().equalsIgnoreCase(verb)
                    && (documented.equals(e.pathTemplate())
                        || documented.endsWith(e.pathTemplate()) && !"/".equals(e.pathTemplate())));
  }

  private static void addTooManyNewKeys(Operation operation) {
    if (operation.getResponses() == null) {
      operation.setResponses(OASFactory.createAPIResponses());
    }
    if (operation.getResponses().hasAPIResponse("429")) {
      return;
    }
    operation
        .getResponses()
        .addAPIResponse(
            "429",
            OASFactory.createAPIResponse()
                .description(
                    "too-many-new-keys: this caller sent too many new Idempotency-Keys for the"
                        + " operation (per server); retries of keys already used are still"
                        + " answered. Send new keys again after Retry-After seconds.")
                .addHeader(
                    "Retry-After",
                    OASFactory.createHeader()
                        .description("seconds until a new key is accepted again")
                        .schema(OASFactory.createSchema().addType(Schema.SchemaType.INTEGER)))
                .content(
                    OASFactory.createContent()
                        .addMediaType(
                            ProblemDetails.MEDIA_TYPE,
                            OASFactory.createMediaType()
                                .schema(
                                    OASFactory.createSchema()
                                        .addType(Schema.SchemaType.OBJECT)
                                        .description("RFC 9457 problem details")))));
  }
}
