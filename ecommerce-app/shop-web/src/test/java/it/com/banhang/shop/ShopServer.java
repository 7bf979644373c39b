package it.com.banhang.shop;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The shop's own Liberty process, for tests that crash it: kill -9, then start it again. {@link
 * #kill(String)} also kills another server of the same installation (a copied node of
 * it-postgresql's load-balanced storm).
 */
public final class ShopServer {

  private static final Path WLP = Path.of(System.getProperty("shop.wlp.dir", "target/liberty/wlp"));
  private static final String NAME = System.getProperty("shop.server.name", "shop");

  private ShopServer() {}

  /** SIGKILL, as a crash: no shutdown hook, no transaction completes. */
  static void kill() throws IOException {
    kill(NAME);
  }

  /** SIGKILL to the server {@code name} of the build's Liberty installation, as a crash. */
  public static void kill(String name) throws IOException {
    ProcessHandle process = ProcessHandle.of(pid(name)).orElseThrow();
    process.destroyForcibly();
    await().atMost(Duration.ofSeconds(30)).until(() -> !process.isAlive());
  }

  /** The running server's process id, as Liberty recorded it when it started. */
  public static long pid() throws IOException {
    return pid(NAME);
  }

  private static long pid(String name) throws IOException {
    return Long.parseLong(
        Files.readString(WLP.resolve("usr/servers/.pid/" + name + ".pid")).trim());
  }

  /** The folder where the running server writes its logs (messages.log, FFDC, ...). */
  static Path logs() {
    return WLP.resolve("usr/servers/" + NAME + "/logs");
  }

  /** Starts the server as the build created it, and waits until the shop answers again. */
  static void start() throws Exception {
    ProcessBuilder start =
        new ProcessBuilder(WLP.resolve("bin/server").toString(), "start", NAME)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    start.environment().put("JAVA_HOME", System.getProperty("java.home"));
    int exit = start.start().waitFor();
    if (exit != 0) {
      throw new IllegalStateException("server start exited with " + exit);
    }
    await()
        .atMost(Duration.ofSeconds(180))
        .pollInterval(Duration.ofSeconds(1))
        .ignoreExceptions()
        .until(
            () ->
                given().baseUri(ShopApi.URL).get("/health").statusCode() == 200
                    && ShopApi.as("alice").get("/api/v1/orders/none").statusCode() == 404);
  }
}
