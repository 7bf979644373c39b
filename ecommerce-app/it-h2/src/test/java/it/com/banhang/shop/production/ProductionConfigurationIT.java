package it.com.banhang.shop.production;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.config.RedirectConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The shop started with the repository's server configuration alone (no development profile), given
 * only the settings docs/deployment.md requires, plus a plain-HTTP port opened on purpose. What a
 * deployer gets: no sandbox, TLS, no published passwords, Basic refused over plain HTTP, metrics
 * only for the metrics reader, no OpenAPI.
 */
class ProductionConfigurationIT {

  private static final String HTTPS =
      System.getProperty("production.https.url", "https://localhost:9551");
  private static final String HTTP =
      System.getProperty("production.http.url", "http://localhost:9188");
  private static final String ORDER =
      "{\"currency\":\"VND\",\"items\":[{\"sku\":\"PROD-1\",\"quantity\":1,\"unitPrice\":1000}]}";

  private static RequestSpecification https() {
    // The server's certificate is a self-signed one the build made (keytool): trust it here.
    // (config() replaces the whole configuration, so it comes before relaxedHTTPSValidation.)
    return given()
        .config(
            RestAssuredConfig.config()
                .redirect(RedirectConfig.redirectConfig().followRedirects(false)))
        .relaxedHTTPSValidation()
        .baseUri(HTTPS);
  }

  private static RequestSpecification https(String user, String password) {
    return https().auth().preemptive().basic(user, password);
  }

  @Test
  void takesOrdersOverTlsWithTheConfiguredPasswords() {
    Response created =
        https("alice", "it-production-alice")
            .contentType(ContentType.JSON)
            .header("Idempotency-Key", UUID.randomUUID().toString())
            .body(ORDER)
            .post("/api/v1/orders");

    assertThat(created.statusCode()).isEqualTo(201);
    assertThat(created.jsonPath().getString("status")).isEqualTo("PENDING_PAYMENT");
    assertThat(created.header("Trace-Id"))
        .as("no OTLP endpoint is configured, so the OpenTelemetry SDK is off and nothing is traced")
        .isNull();
  }

  @Test
  void thePublishedDevelopmentPasswordsOpenNothing() {
    for (String[] user :
        new String[][] {
          {"alice", "alice-secret"},
          {"operator", "operator-secret"},
          {"metrics", "metrics-secret"},
          {"operator2", "operator2-secret"}
        }) {
      Response refused = https(user[0], user[1]).get("/api/v1/admin/stuck-operations");
      assertThat(refused.statusCode()).as(user[0]).isEqualTo(401);
    }
  }

  @Test
  void basicOverPlainHttpIsRefusedEvenWithTheRightPassword() {
    Response refused =
        given()
            .baseUri(HTTP)
            .auth()
            .preemptive()
            .basic("alice", "it-production-alice")
            .contentType(ContentType.JSON)
            .header("Idempotency-Key", UUID.randomUUID().toString())
            .body(ORDER)
            .post("/api/v1/orders");

    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(refused.contentType()).startsWith("application/problem+json");
    assertThat(refused.jsonPath().getString("type")).endsWith("https-required");
  }

  @Test
  void noPasswordIsAskedForOverPlainHttp() {
    Response refused = given().baseUri(HTTP).get("/api/v1/orders/" + UUID.randomUUID());

    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(refused.header("WWW-Authenticate")).isNull();
    assertThat(refused.jsonPath().getString("type")).endsWith("https-required");
  }

  @Test
  void everyAnswerOverTlsCarriesTheSecurityHeaders() {
    for (Response response :
        new Response[] {
          https().get("/api/v1/orders/" + UUID.randomUUID()),
          https("alice", "it-production-alice").get("/api/v1/orders/" + UUID.randomUUID()),
          https().get("/health/live"),
          https().get("/metrics"),
          https().get("/admin")
        }) {
      assertThat(response.header("Strict-Transport-Security")).isEqualTo("max-age=31536000");
      assertThat(response.header("X-Content-Type-Options")).isEqualTo("nosniff");
      assertThat(response.header("X-Frame-Options")).isEqualTo("DENY");
      assertThat(response.header("Content-Security-Policy")).isEqualTo("frame-ancestors 'none'");
      assertThat(response.header("Referrer-Policy")).isEqualTo("no-referrer");
      assertThat(response.header("X-Powered-By")).isNull();
    }
  }

  @Test
  void theConsolesSessionCookieIsSecure() {
    Response console = https().get("/admin/");

    assertThat(console.headers().getValues("Set-Cookie"))
        .as("%s %s", console.statusCode(), console.headers())
        .filteredOn(cookie -> cookie.startsWith("JSESSIONID="))
        .isNotEmpty()
        .allSatisfy(cookie -> assertThat(cookie).containsIgnoringCase("; Secure"));
  }

  /**
   * The processor's webhooks are off until a secret is configured
   * (payments.gateway.webhooks.secrets, which the production configuration leaves unset): every
   * delivery is 404 gateway-webhooks-off, signed or not.
   */
  @Test
  void theProcessorsWebhooksAreOffWithoutASecret() {
    Response off =
        https()
            .contentType(ContentType.JSON)
            .header("webhook-id", "evt_production")
            .header("webhook-timestamp", String.valueOf(java.time.Instant.now().getEpochSecond()))
            .header("webhook-signature", "v1,AAAA")
            .body("{\"id\":\"evt_production\",\"type\":\"charge.succeeded\"}")
            .post("/api/v1/gateway/webhooks");

    assertThat(off.statusCode()).as(off.asString()).isEqualTo(404);
    assertThat(off.contentType()).startsWith("application/problem+json");
    assertThat(off.jsonPath().getString("type")).endsWith("#gateway-webhooks-off");
  }

  @Test
  void noGatewaySandboxIsDeployed() {
    Response stats = https().get("/gateway/v1/stats");
    Response faults =
        https()
            .contentType(ContentType.JSON)
            .body("{\"latencyMs\":600000}")
            .put("/gateway/v1/faults");

    assertThat(stats.statusCode()).isIn(401, 404);
    assertThat(faults.statusCode()).isIn(401, 404, 405);
    assertThat(stats.asString()).doesNotContain("charges");
  }

  /**
   * Least privilege: the scraper has its own login (group metrics-readers, Liberty's mpMetrics
   * reader-role), which opens /metrics and nothing else; operators and customers are refused it.
   */
  @Test
  void metricsNeedTheMetricsReader_andItsLoginOpensNothingElse() {
    assertThat(https().get("/metrics").statusCode()).isEqualTo(401);
    assertThat(https("alice", "it-production-alice").get("/metrics").statusCode()).isEqualTo(403);
    assertThat(https("operator", "it-production-operator").get("/metrics").statusCode())
        .isEqualTo(403);
    Response metrics = https("metrics", "it-production-metrics").get("/metrics");
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.asString()).contains("idempotency");
    assertThat(
            https("metrics", "it-production-metrics")
                .get("/api/v1/admin/stuck-operations")
                .statusCode())
        .isEqualTo(403);
    assertThat(https("metrics", "it-production-metrics").get("/api/v1/orders/x").statusCode())
        .isEqualTo(403);
  }

  @Test
  void noOpenApiDocumentIsPublished() {
    assertThat(https().get("/openapi").statusCode()).isEqualTo(404);
  }

  @Test
  void healthStaysOpenForProbes() {
    assertThat(https().get("/health/live").statusCode()).isEqualTo(200);
  }

  /** HTTP/2 is not offered (docs/security.md, "The Liberty runtime"): ALPN settles on HTTP/1.1. */
  @Test
  void theEndpointSpeaksHttp11Only() throws Exception {
    javax.net.ssl.SSLContext trustingTheTestCertificate =
        javax.net.ssl.SSLContext.getInstance("TLS");
    trustingTheTestCertificate.init(
        null,
        new javax.net.ssl.TrustManager[] {
          new javax.net.ssl.X509TrustManager() {
            @Override
            public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String a) {}

            @Override
            public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String a) {}

            @Override
            public java.security.cert.X509Certificate[] getAcceptedIssuers() {
              return new java.security.cert.X509Certificate[0];
            }
          }
        },
        null);
    java.net.http.HttpClient client =
        java.net.http.HttpClient.newBuilder()
            .version(java.net.http.HttpClient.Version.HTTP_2)
            .sslContext(trustingTheTestCertificate)
            .build();

    java.net.http.HttpResponse<String> live =
        client.send(
            java.net.http.HttpRequest.newBuilder(java.net.URI.create(HTTPS + "/health/live"))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());

    assertThat(live.statusCode()).isEqualTo(200);
    assertThat(live.version()).isEqualTo(java.net.http.HttpClient.Version.HTTP_1_1);
  }
}
