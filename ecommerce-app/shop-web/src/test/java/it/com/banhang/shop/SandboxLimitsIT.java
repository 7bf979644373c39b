package it.com.banhang.shop;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's own bounds (ecommerce-app/gateway-sandbox/README.md): no request body over 64 KiB,
 * no latency that parks a caller for longer than 30 s.
 */
@SameOnEveryDatabase
class SandboxLimitsIT {

  @AfterEach
  void noFaults() {
    Sandbox.noFaults();
  }

  @Test
  void aBodyOver64KiBIsRefusedWith413() {
    String huge =
        "{\"amount\":1,\"currency\":\"VND\",\"orderReference\":\"" + "x".repeat(70_000) + "\"}";

    Response refused =
        given()
            .baseUri(Sandbox.URL)
            .contentType(ContentType.JSON)
            .header("Idempotency-Key", ShopApi.newKey())
            .body(huge)
            .post("/v1/charges");

    assertThat(refused.statusCode()).isEqualTo(413);
    assertThat((String) refused.path("error")).isEqualTo("request_too_large");
  }

  @Test
  void aLatencyOver30SecondsIsRefused() {
    Response refused =
        given()
            .baseUri(Sandbox.URL)
            .contentType(ContentType.JSON)
            .body("{\"latencyMs\":30001}")
            .put("/v1/faults");

    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat((String) refused.path("error")).isEqualTo("invalid_faults");
    assertThat((String) refused.path("message")).contains("30000");
  }
}
