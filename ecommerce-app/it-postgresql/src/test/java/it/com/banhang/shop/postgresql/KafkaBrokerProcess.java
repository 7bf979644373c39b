package it.com.banhang.shop.postgresql;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The main class of the suite's Kafka broker JVM (KafkaBroker#startForBuild): Kafka's own main,
 * plus a watch on the build's process. The broker outlives the JVM that started it (the build's, or
 * a test's that restarted it after an outage) and is stopped by the build after the tests; should
 * the build end without stopping it (killed, or run only up to integration-test), the broker ends
 * itself within a second or so, as an operator's stop would, and frees its ports for the next
 * build.
 *
 * <p>Arguments: the build's process id, then the broker's {@code server.properties}.
 */
public final class KafkaBrokerProcess {

  private static final Duration WATCH_INTERVAL = Duration.ofMillis(500);

  /** Kafka's controlled shutdown takes seconds; a broker that hangs in it is halted. */
  private static final Duration SHUTDOWN_LIMIT = Duration.ofSeconds(60);

  private KafkaBrokerProcess() {}

  public static void main(String[] args) throws Exception {
    long ownerPid = Long.parseLong(args[0]);
    ProcessHandle owner = ProcessHandle.of(ownerPid).orElse(null);
    if (owner == null || !owner.isAlive()) {
      System.out.println("The build's process " + ownerPid + " is gone: not starting");
      System.exit(2);
    }
    Thread watch =
        new Thread(
            () -> {
              try {
                // isAlive() also compares the start time: a recycled pid is not the build.
                while (owner.isAlive()) {
                  Thread.sleep(WATCH_INTERVAL.toMillis());
                }
              } catch (InterruptedException e) {
                return;
              }
              System.out.println("The build's process " + ownerPid + " ended: stopping the broker");
              Thread halt =
                  new Thread(
                      () -> {
                        try {
                          Thread.sleep(SHUTDOWN_LIMIT.toMillis());
                        } catch (InterruptedException e) {
                          return;
                        }
                        Runtime.getRuntime().halt(1);
                      },
                      "kafka-broker-halt");
              halt.setDaemon(true);
              halt.start();
              // Runs Kafka's shutdown hook: the same controlled shutdown as SIGTERM.
              System.exit(0);
            },
            "kafka-broker-owner-watch");
    watch.setDaemon(true);
    watch.start();
    // Kafka's main (a Scala object's static forwarder), by name: no compile-time tie to the broker.
    Class.forName("kafka.Kafka")
        .getMethod("main", String[].class)
        .invoke(null, (Object) new String[] {args[1]});
  }

  /** Where this class is loaded from (the module's test classes), for the broker's class path. */
  static String location() {
    try {
      return Path.of(
              KafkaBrokerProcess.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
