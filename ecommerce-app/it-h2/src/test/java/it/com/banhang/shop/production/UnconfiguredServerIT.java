package it.com.banhang.shop.production;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A server made the way docs/deployment.md says (Liberty's {@code server create}, then the
 * repository's src/main/liberty/config and the WAR copied in), with none of the settings it
 * requires and {@code SHOP_PROFILE=development} in its environment: it holds no development piece,
 * the development profile is refused (the server does not listen on loopback only), and the shop
 * must not start, its log saying what to set.
 */
class UnconfiguredServerIT {

  private static final Path WLP = ServerFolders.WLP;
  private static final String CONFIGURED =
      System.getProperty("production.server.name", "shop-it-production");
  private static final String NAME = "shop-it-unconfigured";
  private static final Path SERVER = WLP.resolve("usr/servers/" + NAME);
  private static final Path REPOSITORY_CONFIG =
      Path.of(System.getProperty("shop.liberty.config", "../../src/main/liberty/config"));

  @BeforeAll
  static void startWithoutSettings() throws Exception {
    Path configured = WLP.resolve("usr/servers/" + CONFIGURED);
    ServerFolders.deleteRecursively(SERVER);
    // docs/deployment.md, "2. The server": create it, copy the configuration folder and the WAR.
    ServerFolders.server("create", NAME);
    ServerFolders.copyRecursively(REPOSITORY_CONFIG, SERVER);
    ServerFolders.copyRecursively(configured.resolve("apps"), SERVER.resolve("apps"));
    // Step 3 says to write server.env whole (Liberty's own has no final newline).
    // With the development profile asked for, and the secrets this repository publishes for it
    // (src/main/liberty/development/profiles/development.xml) copied in by a careless deployer.
    Files.writeString(
        SERVER.resolve("server.env"),
        "SHOP_PROFILE=development\n"
            + "PAYMENTS_GATEWAY_KEY_SECRET="
            + "ZGV2ZWxvcG1lbnQtb25seS1nYXRld2F5LWtleS1zZWNyZXQtMDAwMDAwMDA=\n"
            + "IDEMPOTENCY_BODY_KEYS=dev1:ZGV2ZWxvcG1lbnQtb25seS1ib2R5LWtleS0wMDAwMDA=\n"
            + "SHOP_TLS_KEYSTORE_PASSWORD=development-keystore\n");
    // Only what any test server needs to coexist with the others: an H2 database of its own
    // (so that start-up gets as far as it can) and ports nobody else uses.
    Files.writeString(
        SERVER.resolve("bootstrap.properties"),
        "shop.db=h2\n"
            + "shop.h2.dir="
            + SERVER.resolve("db").toAbsolutePath().toString().replace('\\', '/')
            + "\nhttp.port=-1\nhttps.port=9549\n",
        StandardCharsets.UTF_8);
    ServerFolders.server("start", NAME);
  }

  @AfterAll
  static void stop() throws Exception {
    ServerFolders.server("stop", NAME);
  }

  @Test
  void holdsNoDevelopmentPiece() throws IOException {
    try (Stream<Path> files = Files.walk(SERVER)) {
      List<String> found =
          files
              .filter(Files::isRegularFile)
              .filter(file -> !file.startsWith(SERVER.resolve("logs")))
              .filter(file -> !file.startsWith(SERVER.resolve("workarea")))
              .filter(file -> !file.startsWith(SERVER.resolve("db")))
              // The WAR (and Liberty's expansion of it) is the one that ships; listed below.
              .filter(file -> !file.startsWith(SERVER.resolve("apps")))
              .filter(file -> !file.getFileName().toString().equals("server.env"))
              .filter(UnconfiguredServerIT::isDevelopmentPiece)
              .map(file -> SERVER.relativize(file).toString())
              .toList();
      assertThat(found).isEmpty();
    }
    assertThat(SERVER.resolve("profiles")).doesNotExist();
    assertThat(SERVER.resolve("sandbox")).doesNotExist();
    try (Stream<Path> apps = Files.list(SERVER.resolve("apps"))) {
      assertThat(apps.filter(Files::isRegularFile).map(app -> app.getFileName().toString()))
          .containsExactly("shop-web.war");
    }
  }

  private static boolean isDevelopmentPiece(Path file) {
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      return text.contains("shop.profile=development")
          || text.contains("<shop.profile>development")
          || text.contains("alice-secret")
          || text.contains("operator-secret")
          || text.contains("development-keystore")
          || text.contains("gateway-sandbox.war");
    } catch (IOException binary) {
      return false;
    }
  }

  @Test
  void refusesToStartAndSaysWhatToSet() throws IOException {
    Path log = SERVER.resolve("logs/messages.log");
    ServerFolders.awaitLog(SERVER, "refuses to start");
    String messages = read(log);

    assertThat(messages)
        .contains("SHOP_PROFILE")
        .contains("loopback")
        .contains("SHOP_H2_USER")
        .contains("SHOP_H2_PASSWORD")
        .contains("PAYMENTS_GATEWAY_KEY_SECRET) is the published development secret")
        .contains("IDEMPOTENCY_BODY_KEYS) holds the published development key")
        .contains("SHOP_TLS_KEYSTORE_PASSWORD) is the published development password")
        .contains("GATEWAY_MP_REST_URL")
        .contains("SHOP_USERS_ALICE_PASSWORD")
        .contains("SHOP_USERS_OPERATOR_PASSWORD")
        .contains("SHOP_USERS_METRICS_PASSWORD");
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> read(log).contains("CWWKZ0002E") || read(log).contains("SRVE0265E"));
    assertThat(read(log)).doesNotContain("CWWKZ0001I: Application shop-web started");
  }

  /** docs/deployment.md, "Start, and know that it started": what a start script checks. */
  @Test
  void readinessTellsAScriptThatTheShopDidNotStart() throws IOException {
    Path log = SERVER.resolve("logs/messages.log");
    ServerFolders.awaitLog(SERVER, "CWWKZ0002E");

    Response ready =
        RestAssured.given().relaxedHTTPSValidation().get("https://localhost:9549/health/ready");

    assertThat(ready.statusCode()).isEqualTo(503);
    assertThat(ready.jsonPath().getString("status")).isEqualTo("DOWN");
  }

  private static String read(Path log) throws IOException {
    return ServerFolders.read(log);
  }
}
