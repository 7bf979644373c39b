package it.com.banhang.shop.postgresql;

import static org.awaitility.Awaitility.await;

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
 * A second shop server beside the one the build started: the same Liberty installation, the same
 * WAR, configuration and database, on ports of its own. It is made by copying the first server's
 * folder without what a server writes for itself (logs, workarea, transaction log, the expanded
 * WAR), so that the two nodes share nothing but the database and the gateway, as two machines
 * behind a balancer would.
 */
final class SecondShopNode implements AutoCloseable {

  /** What a running server writes in its folder: never shared between two nodes. */
  private static final Set<String> OWN_STATE = Set.of("logs", "workarea", "tranlog", "expanded");

  private final Path wlp;
  private final String name;
  final String url;

  private SecondShopNode(Path wlp, String name, String url) {
    this.wlp = wlp;
    this.name = name;
    this.url = url;
  }

  /** Copies the build's shop server as {@code <name>-b} on {@code httpPort}, starts it, waits. */
  static SecondShopNode start(int httpPort, int httpsPort) throws Exception {
    return start("b", httpPort, httpsPort, Map.of());
  }

  /**
   * Copies the build's shop server as {@code <name>-<suffix>} on {@code httpPort}, with {@code
   * overrides} set in its bootstrap properties (replacing the build's value of a property it
   * names), starts it, waits: a node that may use another database (DatabaseFailoverStormIT).
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
    node.server("start");
    try {
      await()
          .atMost(Duration.ofSeconds(180))
          .pollInterval(Duration.ofSeconds(1))
          .ignoreExceptions()
          .until(node::answers);
    } catch (RuntimeException e) {
      node.close(); // never left running for the rest of the build
      throw e;
    }
    return node;
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
    server("stop");
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
