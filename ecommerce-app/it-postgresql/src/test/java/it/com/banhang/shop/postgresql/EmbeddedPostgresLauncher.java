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
    // -Dit.postgresql.runtime.user=postgres runs the shop as the owner, as it ran before the
    // separate runtime login: RestrictedDatabaseLoginIT then fails.
    if (args.length > 3 && !"postgres".equals(args[2])) {
      createRuntimeLogin(postgres, args[2], args[3]);
    }
    System.out.println("PostgreSQL ready on port " + postgres.getPort());
  }

  /**
   * What docs/deployment.md has a deployer do once: a login for the shop at run time, and no CREATE
   * on schema public for anyone but its owner (PostgreSQL before 15 grants it to PUBLIC). Its data
   * rights come from the shop's migrations (RuntimeGrants).
   */
  private static void createRuntimeLogin(EmbeddedPostgres postgres, String user, String password)
      throws IOException {
    try (java.sql.Connection owner = postgres.getPostgresDatabase().getConnection();
        java.sql.Statement statement = owner.createStatement()) {
      statement.execute(
          "CREATE ROLE \"" + user + "\" LOGIN PASSWORD '" + password.replace("'", "''") + "'");
      statement.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
    } catch (java.sql.SQLException e) {
      throw new IOException("could not create the runtime login " + user, e);
    }
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
