package it.com.banhang.shop.production;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * What the tests that make a Liberty server of their own do with it, as a deployer would: Liberty's
 * {@code bin/server} command, and copies of folders.
 */
final class ServerFolders {

  static final Path WLP = Path.of(System.getProperty("shop.wlp.dir", "target/liberty/wlp"));

  private ServerFolders() {}

  /** {@code bin/server <action> <name>}, with the JDK the tests run on; waits for it to end. */
  static void server(String action, String name) throws Exception {
    ProcessBuilder command =
        new ProcessBuilder(WLP.resolve("bin/server").toString(), action, name)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    command.environment().put("JAVA_HOME", System.getProperty("java.home"));
    command.start().waitFor();
  }

  /**
   * Waits until the server's {@code messages.log} contains {@code text} (a refused start takes up
   * to a few minutes on a loaded machine) and returns the whole log.
   */
  static String awaitLog(Path server, String text) throws IOException {
    Path log = server.resolve("logs/messages.log");
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(240))
        .pollInterval(java.time.Duration.ofSeconds(2))
        .until(() -> Files.exists(log) && read(log).contains(text));
    return read(log);
  }

  static String read(Path log) throws IOException {
    return Files.readString(log, java.nio.charset.StandardCharsets.UTF_8);
  }

  static void copyRecursively(Path from, Path to) throws IOException {
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

  static void deleteRecursively(Path path) throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(path)) {
      for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
