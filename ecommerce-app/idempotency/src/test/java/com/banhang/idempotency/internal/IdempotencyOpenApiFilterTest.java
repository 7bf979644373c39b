package com.banhang.idempotency.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which documented operations get the library's 429. */
class IdempotencyOpenApiFilterTest {

  private static final Set<IdempotentEndpoints.Endpoint> ENDPOINTS =
      Set.of(
          new IdempotentEndpoints.Endpoint("POST", "/v1/orders"),
          new IdempotentEndpoints.Endpoint("POST", "/v1/orders/{orderId}/payments"));

  @Test
  void template_dropsRegexAndExtraSlashes() {
    assertThat(IdempotentEndpoints.template("v1/orders//{id : [0-9]+}/"))
        .isEqualTo("/v1/orders/{id}");
    assertThat(IdempotentEndpoints.template("/")).isEqualTo("/");
  }

  @Test
  void matches_theOperationUnderTheApplicationPath_onlyForItsHttpMethod() {
    assertThat(IdempotencyOpenApiFilter.isIdempotent(ENDPOINTS, "POST", "/api/v1/orders")).isTrue();
    assertThat(
            IdempotencyOpenApiFilter.isIdempotent(
                ENDPOINTS, "POST", "/api/v1/orders/{orderId}/payments"))
        .isTrue();
    assertThat(IdempotencyOpenApiFilter.isIdempotent(ENDPOINTS, "GET", "/api/v1/orders")).isFalse();
    assertThat(IdempotencyOpenApiFilter.isIdempotent(ENDPOINTS, "POST", "/api/v1/orders/{id}"))
        .isFalse();
    assertThat(IdempotencyOpenApiFilter.isIdempotent(ENDPOINTS, "POST", "/api/v1/suborders"))
        .isFalse();
  }
}
