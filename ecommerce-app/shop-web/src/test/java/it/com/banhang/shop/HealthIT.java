package it.com.banhang.shop;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** MicroProfile Health as an orchestrator reads it: readiness with its checks, liveness. */
class HealthIT {

  @Test
  void ready_isUp_withTheDatabaseGatewayAndMigrationChecks() {
    Response ready = given().baseUri(ShopApi.URL).get("/health/ready");

    assertThat(ready.statusCode()).as(ready.asString()).isEqualTo(200);
    assertThat((String) ready.path("status")).isEqualTo("UP");
    Map<String, Map<String, Object>> checks = checks(ready);
    assertThat(checks).containsKeys("database", "gateway", "migrations", "idempotency-enforced");
    checks.forEach((name, check) -> assertThat(check.get("status")).as(name).isEqualTo("UP"));
  }

  @Test
  void live_isUp_withTheJvmCheck() {
    Response live = given().baseUri(ShopApi.URL).get("/health/live");

    assertThat(live.statusCode()).as(live.asString()).isEqualTo(200);
    assertThat((String) live.path("status")).isEqualTo("UP");
    Map<String, Map<String, Object>> checks = checks(live);
    assertThat(checks).containsOnlyKeys("jvm");
    assertThat(checks.get("jvm").get("status")).isEqualTo("UP");
  }

  @Test
  void health_listsEveryCheck() {
    Response health = given().baseUri(ShopApi.URL).get("/health");

    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(checks(health)).containsKeys("database", "gateway", "migrations", "jvm");
  }

  /**
   * /health is open to anyone: it says UP or DOWN and names the checks, nothing an attacker could
   * use (docs/observability.md). Before, it listed the gateway's URL, the database product and
   * exact version, the schema version and the JVM's heap and thread figures.
   */
  @Test
  void anAnonymousCallerLearnsStatusAndCheckNamesOnly() {
    for (String path : new String[] {"/health", "/health/ready", "/health/live"}) {
      Response health = given().baseUri(ShopApi.URL).get(path);
      String body = health.asString();

      assertThat(health.statusCode()).as(path).isEqualTo(200);
      // Liberty writes an empty "data" member for a check that gives none.
      checks(health)
          .forEach(
              (name, check) -> {
                assertThat(check.keySet())
                    .as(path + " " + name)
                    .isSubsetOf("name", "status", "data");
                assertThat((Map<?, ?>) check.getOrDefault("data", Map.of()))
                    .as(path + " " + name)
                    .isEmpty();
              });
      assertThat(body)
          .as(path)
          .doesNotContain("http://")
          .doesNotContain("https://")
          .doesNotContainIgnoringCase("localhost")
          .doesNotContainIgnoringCase("postgresql")
          .doesNotContainIgnoringCase("h2")
          .doesNotContain("Exception")
          .doesNotContainPattern("\\d+\\.\\d+");
    }
  }

  static Map<String, Map<String, Object>> checks(Response response) {
    List<Map<String, Object>> checks = response.path("checks");
    Map<String, Map<String, Object>> byName = new java.util.TreeMap<>();
    for (Map<String, Object> check : checks) {
      byName.put((String) check.get("name"), check);
    }
    return byName;
  }
}
