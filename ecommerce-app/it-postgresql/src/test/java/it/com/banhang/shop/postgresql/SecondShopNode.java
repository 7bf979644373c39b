package it.com.banhang.shop.postgresql;

import static org.awaitility.Awaitility.await;

import it.com.banhang.shop.ShopServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Another shop server beside the one the build started: the same Liberty installation, the same
 * WAR, configuration and database, on ports of its own. It is made by copying the first server's
 * folder without what a server writes for itself (logs, workarea, transaction log, the expanded
 * WAR), so that the nodes share nothing but the database and the gateway, as machines behind a
 * balancer would. Each copy has a suffix of its own ({@code <name>-b}, {@code <name>-c}, ...), so
 * that a test may run several (TwoNodeStormIT one, LoadBalancedStormIT two); a copy can be killed
 * with SIGKILL, stopped and started again.
 */
final class SecondShopNode implements AutoCloseable {

  /** What a running server writes in its folder: never shared between two nodes. */
  private static final Set<String> OWN_STATE = Set.of("logs", "workarea", "tranlog", "expanded");

  private final Path wlp;
  final String name;
  final String url;

  /** False once killed or stopped: closing a node that is not running does nothing. */
  private volatile boolean running;

  private SecondShopNode(Path wlp, String name, String url) {
    this.wlp = wlp;
    this.name = name;
    this.url = url;
  }

  /** Copies the build's shop server as {@code <name>-b} on {@code httpPort}, starts it, waits. */
  static SecondShopNode start(int httpPort, int httpsPort) throws Exception {
    return start("b", httpPort, httpsPort);
  }

  /**
   * Copies the build's shop server as {@code <name>-<suffix>} on {@code httpPort}, starts it, and
   * waits until it answers. Copies with different suffixes may be started at the same time.
   */
  static SecondShopNode start(String suffix, int httpPort, int httpsPort) throws Exception {
    return start(suffix, httpPort, httpsPort, Map.of());
  }

  /**
   * As {@link #start(String, int, int)}, with {@code overrides} set in the copy's bootstrap
   * properties (replacing the build's value of a property it names): a node that may use another
   * database (DatabaseFailoverStormIT).
   */
  static SecondShopNode start(
      String suffix, int httpPort, int httpsPort, Map<String, String> overrides) throws Exception {
    Path wlp = Path.of(System.getProperty("shop.wlp.dir"));
    String first = System.getProperty("shop.server.name");
    String name = first + "-" + suffix;
    Path from = wlp.resolve("usr/servers").resolve(first);
    Path to = wlp.resolve("usr/servers").resolve(name);
    deleteRecursively(to);
    copy(from, to);
    Path bootstrap = to.resolve("bootstrap.properties");
    String properties =
        Files.readString(bootstrap)
            .replaceAll("(?m)^http\\.port=.*$", "http.port=" + httpPort)
            .replaceAll("(?m)^https\\.port=.*$", "https.port=" + httpsPort);
    for (Map.Entry<String, String> property : overrides.entrySet()) {
      String line = property.getKey() + "=" + property.getValue();
      String named = "(?m)^" + java.util.regex.Pattern.quote(property.getKey()) + "=.*$";
      properties =
          properties.lines().anyMatch(l -> l.startsWith(property.getKey() + "="))
              ? properties.replaceAll(named, java.util.regex.Matcher.quoteReplacement(line))
              : properties + System.lineSeparator() + line + System.lineSeparator();
    }
    Files.writeString(bootstrap, properties);

    SecondShopNode node = new SecondShopNode(wlp, name, "http://localhost:" + httpPort);
    node.startAgain();
    return node;
  }

  /** Starts this (stopped or killed) node's server, and waits until it answers. */
  void startAgain() throws Exception {
    running = true;
    server("start");
    try {
      await()
          .atMost(Duration.ofSeconds(180))
          .pollInterval(Duration.ofSeconds(1))
          .ignoreExceptions()
          .until(this::answers);
    } catch (RuntimeException e) {
      close(); // never left running for the rest of the build
      throw e;
    }
  }

  /** SIGKILL, as a crash (ShopServer's): no shutdown, no request completes. */
  void kill() throws IOException {
    running = false;
    ShopServer.kill(name);
  }

  /** Stops the server as an operator would ({@code server stop}: Liberty's orderly shutdown). */
  void stop() throws IOException, InterruptedException {
    running = false;
    server("stop");
  }

  /** Ready, and the shop's API deployed (an unknown order is a 404 problem, not a 404 page). */
  private boolean answers() throws IOException, InterruptedException {
    HttpClient http = HttpClient.newHttpClient();
    HttpResponse<Void> ready =
        http.send(
            HttpRequest.newBuilder(URI.create(url + "/health/ready")).build(),
            HttpResponse.BodyHandlers.discarding());
    HttpResponse<Void> api =
        http.send(
            HttpRequest.newBuilder(URI.create(url + "/api/v1/orders/none"))
                .header(
                    "Authorization",
                    "Basic "
                        + java.util.Base64.getEncoder()
                            .encodeToString("alice:alice-secret".getBytes()))
                .build(),
            HttpResponse.BodyHandlers.discarding());
    return ready.statusCode() == 200 && api.statusCode() == 404;
  }

  @Override
  public void close() throws Exception {
    if (running) {
      stop();
    }
  }

  private void server(String action) throws IOException, InterruptedException {
    ProcessBuilder command =
        new ProcessBuilder(wlp.resolve("bin/server").toString(), action, name)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    command.environment().put("JAVA_HOME", System.getProperty("java.home"));
    int exit = command.start().waitFor();
    if (exit != 0) {
      throw new IllegalStateException("server " + action + " " + name + " exited with " + exit);
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      paths
          .filter(path -> from.relativize(path).toString().isEmpty() || !ownState(from, path))
          .forEach(
              path -> {
                try {
                  Path target = to.resolve(from.relativize(path).toString());
                  if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                  } else {
                    Files.copy(path, target, StandardCopyOption.REPLACE_EXISTING);
                  }
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
  }

  private static boolean ownState(Path root, Path path) {
    for (Path part : root.relativize(path)) {
      if (OWN_STATE.contains(part.toString())) {
        return true;
      }
    }
    return false;
  }

  private static void deleteRecursively(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      paths
          .sorted(java.util.Comparator.reverseOrder())
          .map(Path::toFile)
          .forEach(java.io.File::delete);
    }
  }
}
