package it.com.banhang.shop.postgresql;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Starts a real PostgreSQL (binaries from the io.zonky.test Maven artifacts, nothing installed on
 * the machine) for the integration tests, and returns once it accepts connections. Run by the build
 * in pre-integration-test, inside the Maven JVM; it stops when that JVM exits, after Liberty.
 */
public final class EmbeddedPostgresLauncher {

  private EmbeddedPostgresLauncher() {}

  public static void main(String[] args) throws IOException {
    int port = Integer.parseInt(args[0]);
    Path dataDirectory = Path.of(args[1]);
    deleteRecursively(dataDirectory);
    EmbeddedPostgres postgres =
        EmbeddedPostgres.builder()
            .setPort(port)
            .setDataDirectory(dataDirectory)
            .setCleanDataDirectory(true)
            .start();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    postgres.close();
                  } catch (IOException e) {
                    System.err.println("could not stop PostgreSQL: " + e);
                  }
                }));
    System.out.println("PostgreSQL ready on port " + postgres.getPort());
  }

  private static void deleteRecursively(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (var paths = Files.walk(directory)) {
      paths.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
    }
  }
}
