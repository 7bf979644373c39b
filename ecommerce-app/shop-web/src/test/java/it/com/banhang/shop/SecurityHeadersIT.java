package it.com.banhang.shop;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.config.RedirectConfig;
import io.restassured.config.RestAssuredConfig;
import io.restassured.response.Response;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The security headers that server.xml's httpEndpoint puts on everything it sends
 * (docs/security.md): the application's answers, its problem documents, the container's own 401,
 * 403 and 404, /health, /metrics and the console, and no header that names the server's internals.
 * (HSTS has the development profile's max-age=0 here; ProductionConfigurationIT checks
 * production's.)
 */
@SameOnEveryDatabase
class SecurityHeadersIT {

  private static Response get(String path) {
    return given()
        .config(
            RestAssuredConfig.config()
                .redirect(RedirectConfig.redirectConfig().followRedirects(false)))
        .baseUri(ShopApi.URL)
        .get(path);
  }

  private static void assertSecurityHeaders(String what, Response response) {
    assertThat(response.header("X-Content-Type-Options")).as(what).isEqualTo("nosniff");
    assertThat(response.header("X-Frame-Options")).as(what).isEqualTo("DENY");
    assertThat(response.header("Content-Security-Policy"))
        .as(what)
        .isEqualTo("frame-ancestors 'none'");
    assertThat(response.header("Referrer-Policy")).as(what).isEqualTo("no-referrer");
    assertThat(response.header("Strict-Transport-Security")).as(what).startsWith("max-age=");
    assertThat(response.header("X-Powered-By")).as(what).isNull();
    assertThat(response.headers().asList())
        .as(what)
        .noneSatisfy(h -> assertThat(h.getName()).startsWithIgnoringCase("$WS"));
  }

  @Test
  void everyKindOfAnswerCarriesTheSecurityHeaders() {
    Response anonymous = get("/api/v1/orders/" + UUID.randomUUID());
    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertSecurityHeaders("the container's 401", anonymous);

    Response notFound = ShopApi.as("alice").get("/api/v1/orders/" + UUID.randomUUID());
    assertThat(notFound.statusCode()).isEqualTo(404);
    assertSecurityHeaders("the application's 404 problem", notFound);

    Response forbidden = ShopApi.as("operator").get("/api/v1/orders/" + UUID.randomUUID());
    assertThat(forbidden.statusCode()).isEqualTo(403);
    assertSecurityHeaders("the container's 403", forbidden);

    Response noSuchPath = get("/no-such-path-" + UUID.randomUUID());
    assertThat(noSuchPath.statusCode()).isEqualTo(404);
    assertSecurityHeaders("an unknown path", noSuchPath);

    assertSecurityHeaders("/health", get("/health"));
    assertSecurityHeaders("/metrics", get("/metrics?scope=application"));
    assertSecurityHeaders("the console", get("/admin"));
  }

  @Test
  void errorAnswersCarryNoInternalHeaders() {
    Response error =
        given()
            .baseUri(ShopApi.URL)
            .auth()
            .preemptive()
            .basic("alice", "alice-secret")
            .contentType("text/plain")
            .body("not json")
            .post("/api/v1/orders");

    assertThat(error.statusCode()).isBetween(400, 499);
    assertThat(error.headers().asList())
        .noneSatisfy(h -> assertThat(h.getName()).startsWithIgnoringCase("$WS"));
    assertThat(error.header("X-Powered-By")).isNull();
  }
}
