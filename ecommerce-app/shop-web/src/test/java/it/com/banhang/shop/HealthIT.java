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

    Map<String, Object> database = data(checks.get("database"));
    assertThat((String) database.get("product"))
        .isEqualTo("postgresql".equals(System.getProperty("shop.db")) ? "PostgreSQL" : "H2");

    Map<String, Object> gateway = data(checks.get("gateway"));
    assertThat(gateway.get("url")).isEqualTo(Sandbox.URL);
    assertThat(gateway.get("status")).isNotNull();

    Map<String, Object> migrations = data(checks.get("migrations"));
    assertThat(migrations.get("vendor")).isEqualTo(System.getProperty("shop.db", "h2"));
    assertThat(migrations.get("pending")).isEqualTo(0);
    assertThat(migrations.get("schemaVersion"))
        .isNotEqualTo("none")
        .isEqualTo(migrations.get("latestVersion"));
  }

  @Test
  void live_isUp_withTheJvmCheck() {
    Response live = given().baseUri(ShopApi.URL).get("/health/live");

    assertThat(live.statusCode()).as(live.asString()).isEqualTo(200);
    assertThat((String) live.path("status")).isEqualTo("UP");
    Map<String, Map<String, Object>> checks = checks(live);
    assertThat(checks).containsOnlyKeys("jvm");
    assertThat(checks.get("jvm").get("status")).isEqualTo("UP");
    assertThat(((Number) data(checks.get("jvm")).get("heapUsedBytes")).longValue()).isPositive();
  }

  @Test
  void health_listsEveryCheck() {
    Response health = given().baseUri(ShopApi.URL).get("/health");

    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(checks(health)).containsKeys("database", "gateway", "migrations", "jvm");
  }

  static Map<String, Map<String, Object>> checks(Response response) {
    List<Map<String, Object>> checks = response.path("checks");
    Map<String, Map<String, Object>> byName = new java.util.TreeMap<>();
    for (Map<String, Object> check : checks) {
      byName.put((String) check.get("name"), check);
    }
    return byName;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> data(Map<String, Object> check) {
    return (Map<String, Object>) check.get("data");
  }
}
