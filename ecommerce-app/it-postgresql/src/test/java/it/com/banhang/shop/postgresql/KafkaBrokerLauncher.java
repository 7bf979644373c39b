package it.com.banhang.shop.postgresql;

import java.nio.file.Path;

/**
 * Starts and stops the suite's Kafka broker, run by the build inside its own JVM (exec:java, like
 * {@link EmbeddedPostgresLauncher}): {@code start} in pre-integration-test, before the shop's
 * server, whose relay then publishes every event to it ({@code events.kafka.bootstrap-servers} in
 * the pom); {@code stop} at verify, after the server has stopped. The broker runs in a JVM of its
 * own that watches the build's JVM, so that a build killed in between leaves no broker behind
 * ({@link KafkaBrokerProcess}).
 *
 * <p>Arguments: {@code start <dir> <port> <controller port> <class path file>}, or {@code stop
 * <dir>}.
 */
public final class KafkaBrokerLauncher {

  private KafkaBrokerLauncher() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[1]);
    switch (args[0]) {
      case "start" -> {
        KafkaBroker broker =
            KafkaBroker.startForBuild(
                dir,
                Integer.parseInt(args[2]),
                Integer.parseInt(args[3]),
                Path.of(args[4]),
                ProcessHandle.current().pid());
        System.out.println("Kafka ready on " + broker.bootstrapServers());
      }
      case "stop" -> {
        if (dir.resolve("build-broker.properties").toFile().isFile()) {
          KafkaBroker.attach(dir).stop();
          System.out.println("Kafka stopped");
        }
      }
      default -> throw new IllegalArgumentException("start or stop, not " + args[0]);
    }
  }
}
