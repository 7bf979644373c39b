package it.com.banhang.shop.production;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A server with the repository's production configuration and none of the settings it requires: the
 * shop must not start, and its log must say what to set.
 */
class UnconfiguredServerIT {

  private static final Path WLP = Path.of(System.getProperty("shop.wlp.dir", "target/liberty/wlp"));
  private static final String CONFIGURED =
      System.getProperty("production.server.name", "shop-it-production");
  private static final String NAME = "shop-it-unconfigured";
  private static final Path SERVER = WLP.resolve("usr/servers/" + NAME);

  @BeforeAll
  static void startWithoutSettings() throws Exception {
    Path configured = WLP.resolve("usr/servers/" + CONFIGURED);
    deleteRecursively(SERVER);
    copyRecursively(configured.resolve("apps"), SERVER.resolve("apps"));
    Files.copy(configured.resolve("server.xml"), SERVER.resolve("server.xml"));
    copyRecursively(configured.resolve("datasources"), SERVER.resolve("datasources"));
    copyRecursively(configured.resolve("profiles"), SERVER.resolve("profiles"));
    // Only what any test server needs to coexist with the others: an H2 database of its own
    // (so that start-up gets as far as it can) and ports nobody else uses.
    Files.writeString(
        SERVER.resolve("bootstrap.properties"),
        "shop.db=h2\n"
            + "shop.h2.dir="
            + SERVER.resolve("db").toAbsolutePath().toString().replace('\\', '/')
            + "\nhttp.port=-1\nhttps.port=9549\n",
        StandardCharsets.UTF_8);
    server("start");
  }

  @AfterAll
  static void stop() throws Exception {
    server("stop");
  }

  @Test
  void refusesToStartAndSaysWhatToSet() throws IOException {
    Path log = SERVER.resolve("logs/messages.log");
    await()
        .atMost(Duration.ofSeconds(240))
        .pollInterval(Duration.ofSeconds(2))
        .until(() -> Files.exists(log) && read(log).contains("refuses to start"));
    String messages = read(log);

    assertThat(messages)
        .contains("GATEWAY_MP_REST_URL")
        .contains("PAYMENTS_GATEWAY_KEY_SECRET")
        .contains("IDEMPOTENCY_BODY_KEYS")
        .contains("SHOP_USERS_ALICE_PASSWORD")
        .contains("SHOP_USERS_OPERATOR_PASSWORD")
        .contains("SHOP_TLS_KEYSTORE_PASSWORD");
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> read(log).contains("CWWKZ0002E") || read(log).contains("SRVE0265E"));
    assertThat(read(log)).doesNotContain("CWWKZ0001I: Application shop-web started");
  }

  private static String read(Path log) throws IOException {
    return Files.readString(log, StandardCharsets.UTF_8);
  }

  private static void server(String action) throws Exception {
    ProcessBuilder command =
        new ProcessBuilder(WLP.resolve("bin/server").toString(), action, NAME)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    command.environment().put("JAVA_HOME", System.getProperty("java.home"));
    command.start().waitFor();
  }

  private static void copyRecursively(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        Path target = to.resolve(from.relativize(path).toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(target);
        } else {
          Files.createDirectories(target.getParent());
          Files.copy(path, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  private static void deleteRecursively(Path path) throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(path)) {
      for (Path p : (Iterable<Path>) paths.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
