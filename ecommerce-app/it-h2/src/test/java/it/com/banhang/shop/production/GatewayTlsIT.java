package it.com.banhang.shop.production;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The production-configuration shop paying through a processor reached over HTTPS (the gateway
 * sandbox with a certificate of its own), as docs/payments.md's "The processor connection" says to
 * deploy it. Payments and readiness trust the processor alike: while its certificate is not trusted
 * a payment is "not sent" (503, the key released, nothing charged) and readiness is DOWN; once the
 * deployer gives the processor's certificate as the gateway truststore, readiness is UP and a retry
 * under the same key charges once. Restarts the production server once (trust is read at start).
 */
class GatewayTlsIT {

  private static final String HTTPS =
      System.getProperty("production.https.url", "https://localhost:9551");
  private static final String SANDBOX =
      System.getProperty("gateway.url", "http://localhost:9283/gateway");
  private static final String SANDBOX_HTTPS =
      System.getProperty("gateway.https.url", "https://localhost:9643/gateway");
  private static final Path WLP = Path.of(System.getProperty("shop.wlp.dir", "target/liberty/wlp"));
  private static final Path SERVER =
      WLP.resolve(
          "usr/servers/" + System.getProperty("production.server.name", "shop-it-production"));
  private static final Path SANDBOX_KEYSTORE =
      Path.of(
          System.getProperty(
              "production.gateway.truststore",
              "target/liberty/wlp/usr/servers/gateway-it/resources/security/key.p12"));
  private static final Path TRUST_DROPIN =
      SERVER.resolve("configDropins/overrides/gateway-trust-it.xml");

  private static RequestSpecification https() {
    // The shop's own certificate is self-signed: the test trusts it (it tests the shop's trust).
    return given().relaxedHTTPSValidation().baseUri(HTTPS);
  }

  private static RequestSpecification alice() {
    return https().auth().preemptive().basic("alice", "it-production-alice");
  }

  @AfterEach
  void untrustTheSandboxAgain() throws Exception {
    Files.deleteIfExists(TRUST_DROPIN);
  }

  @Test
  void anUntrustedProcessorIsNotSentAndReadinessIsDown_trustedItChargesOnceUnderTheSameKey()
      throws Exception {
    String orderId =
        alice()
            .contentType(ContentType.JSON)
            .header("Idempotency-Key", UUID.randomUUID().toString())
            .body(
                "{\"currency\":\"VND\",\"items\":[{\"sku\":\"TLS-1\",\"quantity\":1,\"unitPrice\":1000}]}")
            .post("/api/v1/orders")
            .then()
            .statusCode(201)
            .extract()
            .path("id");
    String paymentKey = UUID.randomUUID().toString();

    // Not trusted: readiness, which asks over the payments' own connection, is DOWN ...
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(() -> assertThat(https().get("/health/ready").statusCode()).isEqualTo(503));
    // ... and a payment fails its handshake before any request reaches the processor: "not sent",
    // the key released, so a retry under the same key is run again, never an unknown outcome.
    for (int attempt = 0; attempt < 2; attempt++) {
      Response refused = pay(orderId, paymentKey);
      assertThat(refused.statusCode()).as(refused.asString()).isEqualTo(503);
      assertThat(refused.contentType()).startsWith("application/problem+json");
      assertThat(refused.jsonPath().getString("type")).endsWith("payment-gateway-unavailable");
    }
    assertThat(succeededCharges(orderId)).isZero();

    // The deployer gives the processor's certificate as the gateway truststore and restarts.
    Files.createDirectories(TRUST_DROPIN.getParent());
    Files.writeString(
        TRUST_DROPIN,
        "<server>\n"
            + "  <variable name=\"shop.gateway.tls.truststore\" value=\""
            + SANDBOX_KEYSTORE.toAbsolutePath()
            + "\"/>\n"
            + "  <variable name=\"shop.gateway.tls.truststore.password\" value=\"sandbox-keystore\"/>\n"
            + "</server>\n");
    server("stop");
    server("start");
    await()
        .atMost(Duration.ofSeconds(180))
        .pollInterval(Duration.ofSeconds(1))
        .ignoreExceptions()
        .untilAsserted(() -> assertThat(https().get("/health/ready").statusCode()).isEqualTo(200));

    Response paid = pay(orderId, paymentKey);
    assertThat(paid.statusCode()).as(paid.asString()).isEqualTo(201);
    assertThat(succeededCharges(orderId)).isEqualTo(1);
  }

  /**
   * The sandbox over HTTPS stands in for a processor that requires the merchant's API key, so the
   * shop's 201 above shows the key was sent; without it the processor refuses to charge.
   */
  @Test
  void theProcessorRefusesAChargeWithoutTheApiKey() {
    Response refused =
        given()
            .relaxedHTTPSValidation()
            .baseUri(SANDBOX_HTTPS)
            .contentType(ContentType.JSON)
            .header("Idempotency-Key", "it-no-api-key-" + UUID.randomUUID())
            .body(
                "{\"amount\":1000,\"currency\":\"VND\",\"orderReference\":\"it-no-key\","
                    + "\"paymentMethod\":\"pm_card_ok\"}")
            .post("/v1/charges");

    assertThat(refused.statusCode()).isEqualTo(401);
    assertThat(succeededCharges("it-no-key")).isZero();
  }

  /** The production server's own start and stop scripts (its settings stay in its folder). */
  private static void server(String action) throws Exception {
    ProcessBuilder command =
        new ProcessBuilder(
                WLP.resolve("bin/server").toString(),
                action,
                System.getProperty("production.server.name", "shop-it-production"))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    command.environment().put("JAVA_HOME", System.getProperty("java.home"));
    int exit = command.start().waitFor();
    assertThat(exit).as("server " + action).isZero();
  }

  private static Response pay(String orderId, String key) {
    return alice()
        .contentType(ContentType.JSON)
        .header("Idempotency-Key", key)
        .body("{\"amount\":1000,\"currency\":\"VND\",\"paymentMethod\":\"pm_card_ok\"}")
        .post("/api/v1/orders/" + orderId + "/payments");
  }

  private static int succeededCharges(String orderId) {
    return given()
        .baseUri(SANDBOX)
        .queryParam("orderReference", orderId)
        .get("/v1/stats")
        .then()
        .statusCode(200)
        .extract()
        .path("succeededCharges");
  }
}
