package it.com.banhang.shop.postgresql;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A real Kafka broker for the tests: one node in KRaft mode, broker and controller together, in a
 * JVM of its own on loopback, run from the jars Maven resolved for this module (the class path file
 * the build writes, see the pom). Its own process so that a test can stop it, kill it and start it
 * again under running clients, as an outage in production would; and so that the broker's Scala,
 * log4j and threads stay out of the test JVM.
 *
 * <p>Everything lives under the directory given to {@link #start(Path)}: {@code server.properties}
 * and {@code log4j2.properties}, the data ({@code data/}), the output of the storage format ({@code
 * format.log}) and the broker's ({@code broker.log}, appended to at every restart), kept after the
 * test for a look when it fails.
 *
 * <p>Two kinds of broker. One a test starts for itself ({@link #start(Path)}), on free ports, which
 * dies with the test's JVM. And the suite's broker, which the build starts before the shop's server
 * ({@link KafkaBrokerLauncher}) on fixed ports and stops after the tests: it outlives the JVM that
 * started it (the build's, or a test's that restarted it) and watches the build's process instead,
 * ending itself when that process is gone (a killed build leaves no broker behind, {@link
 * KafkaBrokerProcess}); tests reach it through {@link #attach(Path)}.
 */
final class KafkaBroker implements AutoCloseable {

  /**
   * The Kafka clients of the test JVM log through slf4j-jdk14 to the build's output, at INFO every
   * configuration value of every client they create; warnings are what a failing test needs. Held
   * here because java.util.logging keeps its loggers, and so their level, only while referenced.
   */
  private static final Logger KAFKA_CLIENT_LOG = Logger.getLogger("org.apache.kafka");

  static {
    KAFKA_CLIENT_LOG.setLevel(Level.WARNING);
  }

  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

  /**
   * Cheap on the two cores of a build machine, where Liberty servers and PostgreSQL run beside it:
   * C1 only (a broker that lives a minute never pays C2's compilations back) and the serial
   * collector (no GC threads per core), in a heap far larger than a test's few records need.
   */
  private static final List<String> JVM_OPTIONS =
      List.of(
          "-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Djava.awt.headless=true");

  /**
   * The broker's log4j 2 configuration: everything at INFO to standard output, which goes to
   * broker.log. Without log4j's own shutdown hook, which would stop logging while the broker's hook
   * still shuts down (a stop that hangs would leave no trace).
   */
  private static final List<String> LOG4J2_PROPERTIES =
      List.of(
          "status = warn",
          "shutdownHook = disable",
          "appender.out.type = Console",
          "appender.out.name = out",
          "appender.out.layout.type = PatternLayout",
          "appender.out.layout.pattern = %d{HH:mm:ss.SSS} %-5p [%t] %c{1}: %m%n",
          "rootLogger.level = info",
          "rootLogger.appenderRef.out.ref = out");

  /** The suite's broker: what {@link #attach(Path)} needs to reach it and to start it again. */
  private static final String BUILD_BROKER = "build-broker.properties";

  /** The suite's broker's process id and start time, rewritten at every start. */
  private static final String PID_FILE = "broker.pid";

  private static final String UNKNOWN_START = "unknown";

  private final Path dir;
  private final int port;
  private final int controllerPort;
  private final String classPath;
  private final Path config;
  private final Path log4j2;
  private final Path log;

  /** The build's process, which the suite's broker watches; -1 for a test's own broker. */
  private final long ownerPid;

  /** A test's own broker only: kills it when the test JVM ends. */
  private final Thread killOnExit;

  private volatile ProcessHandle process;

  private KafkaBroker(Path dir, int port, int controllerPort, String classPath, long ownerPid) {
    this.dir = dir;
    this.port = port;
    this.controllerPort = controllerPort;
    this.classPath = classPath;
    this.ownerPid = ownerPid;
    this.config = dir.resolve("server.properties");
    this.log4j2 = dir.resolve("log4j2.properties");
    this.log = dir.resolve("broker.log");
    // Should the test JVM end without close() (a failed build, a timeout), no broker outlives it.
    this.killOnExit =
        ownerPid >= 0
            ? null
            : new Thread(
                () -> {
                  ProcessHandle running = process;
                  if (running != null) {
                    running.destroyForcibly();
                  }
                },
                "kafka-broker-kill-on-exit");
  }

  /**
   * Starts the suite's broker: a new cluster under {@code dir} on the loopback ports {@code port}
   * and {@code controllerPort}, which runs until {@link #stop()} or until the process {@code
   * ownerPid} (the build) has ended, whichever comes first. A broker an earlier build left in
   * {@code dir} is stopped first, unless that build still runs; a port another process holds fails
   * the start, naming it.
   *
   * @param classPathFile the broker's class path, as the build wrote it
   */
  static KafkaBroker startForBuild(
      Path dir, int port, int controllerPort, Path classPathFile, long ownerPid)
      throws IOException, InterruptedException {
    Path home = dir.toAbsolutePath().normalize();
    stopLeftOver(home);
    requireFree(port);
    requireFree(controllerPort);
    deleteRecursively(home);
    Files.createDirectories(home);
    KafkaBroker broker =
        new KafkaBroker(home, port, controllerPort, brokerClassPath(classPathFile), ownerPid);
    broker.writeConfig();
    Properties build = new Properties();
    build.setProperty("port", Integer.toString(port));
    build.setProperty("controller.port", Integer.toString(controllerPort));
    build.setProperty("class.path", broker.classPath);
    build.setProperty("owner.pid", Long.toString(ownerPid));
    try (var out = Files.newBufferedWriter(home.resolve(BUILD_BROKER))) {
      build.store(out, "The suite's Kafka broker (KafkaBrokerLauncher)");
    }
    broker.format();
    try {
      broker.launch();
    } catch (IOException | InterruptedException | RuntimeException e) {
      broker.kill();
      throw e;
    }
    return broker;
  }

  /**
   * The suite's broker that the build started in {@code dir}, running or not: a test may stop and
   * restart it (on the same ports and data, still watching the build's process), and read its
   * topics. {@link #close()} leaves it as it is.
   */
  static KafkaBroker attach(Path dir) throws IOException {
    Path home = dir.toAbsolutePath().normalize();
    Path file = home.resolve(BUILD_BROKER);
    if (!Files.isRegularFile(file)) {
      throw new IllegalStateException(
          file + " is missing: the build starts the suite's Kafka broker (KafkaBrokerLauncher)");
    }
    Properties build = new Properties();
    try (var in = Files.newBufferedReader(file)) {
      build.load(in);
    }
    KafkaBroker broker =
        new KafkaBroker(
            home,
            Integer.parseInt(build.getProperty("port")),
            Integer.parseInt(build.getProperty("controller.port")),
            build.getProperty("class.path"),
            Long.parseLong(build.getProperty("owner.pid")));
    broker.process = recordedProcess(home).orElse(null);
    return broker;
  }

  /** {@code host:port} of the broker's listener, for {@code bootstrap.servers}. */
  String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  /**
   * Stops the broker as an operator would (SIGTERM: a controlled shutdown, logs flushed) and waits
   * until its process has ended; SIGKILL if it has not within a minute.
   */
  void stop() throws InterruptedException {
    ProcessHandle running = process;
    if (running == null || !running.isAlive()) {
      return;
    }
    running.destroy();
    if (!exited(running, STOP_TIMEOUT)) {
      running.destroyForcibly();
      exited(running, STOP_TIMEOUT);
      throw new IllegalStateException(
          "The Kafka broker did not stop within "
              + STOP_TIMEOUT
              + " of SIGTERM; killed.\n"
              + tail());
    }
  }

  /** Kills the broker (SIGKILL): a crash, nothing flushed beyond what the OS already has. */
  void kill() throws InterruptedException {
    ProcessHandle running = process;
    if (running != null && running.isAlive()) {
      running.destroyForcibly();
      exited(running, STOP_TIMEOUT);
    }
  }

  /** Whether the broker's process runs. */
  boolean isRunning() {
    ProcessHandle running = process;
    return running != null && running.isAlive();
  }

  /**
   * Starts the broker again on the same ports and data (stopping it first if it still runs), so
   * that clients created before reconnect to it, and returns once a client can reach it.
   */
  void restart() throws IOException, InterruptedException {
    stop();
    launch();
  }

  /** Stops a test's own broker; the suite's broker is left to the build. */
  @Override
  public void close() throws InterruptedException {
    if (killOnExit == null) {
      return;
    }
    try {
      stop();
    } finally {
      kill();
      try {
        Runtime.getRuntime().removeShutdownHook(killOnExit);
      } catch (IllegalStateException shuttingDown) {
        // The JVM is exiting: the hook runs anyway, on a process already gone.
      }
    }
  }

  /**
   * Every record of {@code topic} written so far, read from the beginning of each partition up to
   * its end at the time of the call; within a partition in offset order. Only committed records
   * (read_committed), as a consumer of the shop's events would read them.
   */
  List<ConsumerRecord<String, String>> readAll(String topic, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try (KafkaConsumer<String, String> consumer = consumer()) {
      List<TopicPartition> partitions = partitions(consumer, topic, timeout);
      if (partitions.isEmpty()) {
        return List.of();
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
      List<ConsumerRecord<String, String>> records = new ArrayList<>();
      while (partitions.stream().anyMatch(p -> consumer.position(p, timeout) < ends.get(p))) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError(
              "Read "
                  + records.size()
                  + " records of "
                  + topic
                  + " within "
                  + timeout
                  + ", not up to its end "
                  + ends);
        }
        consumer.poll(Duration.ofMillis(200)).records(topic).forEach(records::add);
      }
      return records;
    }
  }

  /**
   * Reads {@code topic} from its beginning until the records read so far satisfy {@code until}
   * (records still to come included: the topic may not exist yet), and returns them; fails after
   * {@code timeout} with what was read.
   */
  List<ConsumerRecord<String, String>> consume(
      String topic, Duration timeout, Predicate<List<ConsumerRecord<String, String>>> until) {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<ConsumerRecord<String, String>> records = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer = consumer()) {
      List<TopicPartition> partitions = List.of();
      while (!until.test(records)) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError(
              "Within " + timeout + ", the records of " + topic + " never matched: " + records);
        }
        if (partitions.isEmpty()) {
          partitions = partitions(consumer, topic, Duration.ofSeconds(1));
          if (partitions.isEmpty()) {
            Thread.sleep(200);
            continue;
          }
          consumer.assign(partitions);
          consumer.seekToBeginning(partitions);
        }
        consumer.poll(Duration.ofMillis(200)).records(topic).forEach(records::add);
      }
      return records;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private KafkaConsumer<String, String> consumer() {
    Properties properties = new Properties();
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    // Reading must not create the topic it looks for (auto.create.topics.enable is on for writers).
    properties.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
    properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "kafka-broker-probe");
    return new KafkaConsumer<>(properties);
  }

  private static List<TopicPartition> partitions(
      KafkaConsumer<String, String> consumer, String topic, Duration timeout) {
    List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
    if (infos == null) {
      return List.of();
    }
    return infos.stream()
        .map(info -> new TopicPartition(info.topic(), info.partition()))
        .sorted(Comparator.comparingInt(TopicPartition::partition))
        .toList();
  }

  private void writeConfig() throws IOException {
    String listeners =
        "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort;
    List<String> lines =
        List.of(
            "process.roles=broker,controller",
            "node.id=1",
            "listeners=" + listeners,
            "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
            "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
            "inter.broker.listener.name=PLAINTEXT",
            "controller.listener.names=CONTROLLER",
            // A dynamic quorum of this one controller (format --standalone), the 4.x way;
            // controller.quorum.voters, the static one, is what --standalone refuses.
            "controller.quorum.bootstrap.servers=127.0.0.1:" + controllerPort,
            "log.dirs=" + dir.resolve("data"),
            "num.partitions=3",
            "auto.create.topics.enable=true",
            // One broker: every internal topic with one replica.
            "offsets.topic.replication.factor=1",
            "transaction.state.log.replication.factor=1",
            "transaction.state.log.min.isr=1",
            "share.coordinator.state.topic.replication.factor=1",
            "share.coordinator.state.topic.min.isr=1",
            // The internal topics have 50 partitions by default: segments, indexes and leader
            // elections a test waits for when its first consumer group or transaction comes.
            "offsets.topic.num.partitions=3",
            "transaction.state.log.num.partitions=3",
            "group.initial.rebalance.delay.ms=0",
            // Fewer threads than the defaults (8 I/O, 3 network), for two cores.
            "num.io.threads=2",
            "num.network.threads=2");
    Files.write(config, lines);
    Files.write(log4j2, LOG4J2_PROPERTIES);
  }

  /** Writes the cluster's identity and the one-controller quorum into the data directory. */
  private void format() throws IOException, InterruptedException {
    Path output = dir.resolve("format.log");
    List<String> command =
        javaCommand(
            classPath,
            "kafka.tools.StorageTool",
            "format",
            "--cluster-id",
            Uuid.randomUuid().toString(),
            "--config",
            config.toString(),
            "--standalone");
    Process format =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    if (!format.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      format.destroyForcibly().waitFor();
      throw new IllegalStateException("Formatting Kafka's storage took over " + START_TIMEOUT);
    }
    if (format.exitValue() != 0) {
      throw new IllegalStateException(
          "Formatting Kafka's storage failed ("
              + format.exitValue()
              + "):\n"
              + Files.readString(output));
    }
  }

  private void launch() throws IOException, InterruptedException {
    long startedAt = System.nanoTime();
    // The suite's broker runs under KafkaBrokerProcess, which watches the build's process.
    List<String> command =
        ownerPid < 0
            ? javaCommand(classPath, "kafka.Kafka", config.toString())
            : javaCommand(
                classPath + File.pathSeparator + KafkaBrokerProcess.location(),
                KafkaBrokerProcess.class.getName(),
                Long.toString(ownerPid),
                config.toString());
    Process started =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    process = started.toHandle();
    if (ownerPid >= 0) {
      Files.writeString(dir.resolve(PID_FILE), started.pid() + " " + startInstant(process));
    }
    try {
      awaitReady(started, startedAt);
    } catch (RuntimeException | InterruptedException e) {
      kill();
      throw e;
    }
    System.out.printf(
        "Kafka broker on %s ready in %d ms (log: %s)%n",
        bootstrapServers(), (System.nanoTime() - startedAt) / 1_000_000, log);
  }

  /**
   * Until an admin client describes the cluster with this node in it. The listener's port is polled
   * first: a client pointed at a closed port logs a warning at every retry.
   */
  private void awaitReady(Process broker, long started) throws InterruptedException {
    long deadline = started + START_TIMEOUT.toNanos();
    boolean listening = false;
    Admin admin = null;
    String lastFailure = "the port never opened";
    try {
      while (System.nanoTime() < deadline) {
        if (!broker.isAlive()) {
          throw new IllegalStateException(
              "The Kafka broker exited (" + broker.exitValue() + ") while starting.\n" + tail());
        }
        if (!listening) {
          listening = accepts(port);
          if (!listening) {
            Thread.sleep(200);
            continue;
          }
          admin = admin();
        }
        try {
          int nodes = admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size();
          if (nodes == 1) {
            return;
          }
          lastFailure = nodes + " nodes in the cluster";
        } catch (ExecutionException | TimeoutException e) {
          lastFailure = e.toString();
        }
        Thread.sleep(200);
      }
    } finally {
      if (admin != null) {
        admin.close(Duration.ofSeconds(5));
      }
    }
    throw new IllegalStateException(
        "The Kafka broker was not ready within "
            + START_TIMEOUT
            + " ("
            + lastFailure
            + ").\n"
            + tail());
  }

  private Admin admin() {
    Properties properties = new Properties();
    properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
    properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000);
    properties.put(AdminClientConfig.CLIENT_ID_CONFIG, "kafka-broker-readiness");
    return Admin.create(properties);
  }

  private static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private List<String> javaCommand(String classPath, String mainClass, String... arguments) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(JVM_OPTIONS);
    command.add("-Dlog4j2.configurationFile=" + log4j2);
    command.add("-cp");
    command.add(classPath);
    command.add(mainClass);
    command.addAll(List.of(arguments));
    return command;
  }

  /** The last lines the broker wrote, for a failure's message. */
  private String tail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return "Last lines of "
          + log
          + ":\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(" + log + " unreadable: " + e + ")";
    }
  }

  /**
   * The jars the build resolved for the broker (maven-dependency-plugin's build-classpath, in the
   * pom); the system property is set by failsafe, the default serves a run from the module's
   * folder.
   */
  private static String brokerClassPath() throws IOException {
    return brokerClassPath(
        Path.of(System.getProperty("kafka.broker.classpath", "target/kafka-broker.classpath")));
  }

  private static String brokerClassPath(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IllegalStateException(
          file.toAbsolutePath()
              + " is missing: run the module's build up to generate-test-resources, which writes"
              + " the Kafka broker's class path.");
    }
    String classPath = Files.readString(file).trim();
    if (!classPath.contains("kafka_2.13")) {
      throw new IllegalStateException(file + " does not name Kafka's broker jar: " + classPath);
    }
    return classPath;
  }

  /** Waits up to {@code timeout} for {@code process} to end; whether it did. */
  private static boolean exited(ProcessHandle process, Duration timeout)
      throws InterruptedException {
    try {
      process.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The suite's broker's process as {@code dir}'s pid file names it, if it still runs. */
  private static Optional<ProcessHandle> recordedProcess(Path dir) throws IOException {
    Path pidFile = dir.resolve(PID_FILE);
    if (!Files.isRegularFile(pidFile)) {
      return Optional.empty();
    }
    String[] recorded = Files.readString(pidFile).trim().split(" ");
    // Only the process that was started then: a recycled pid may belong to anything else by now.
    // (Its arguments cannot tell: the JDK does not read a command line as long as the broker's.)
    return ProcessHandle.of(Long.parseLong(recorded[0]))
        .filter(ProcessHandle::isAlive)
        .filter(
            handle ->
                recorded.length > 1
                    && !recorded[1].equals(UNKNOWN_START)
                    && recorded[1].equals(startInstant(handle)));
  }

  private static String startInstant(ProcessHandle process) {
    return process.info().startInstant().map(Instant::toString).orElse(UNKNOWN_START);
  }

  /**
   * Makes sure no broker of an earlier build still runs in {@code dir}: one whose build has ended
   * (it may still be shutting down by itself, KafkaBrokerProcess) is stopped; one whose build still
   * runs belongs to a build in progress in the same folder, which is left alone: this start fails.
   */
  private static void stopLeftOver(Path dir) throws IOException, InterruptedException {
    Optional<ProcessHandle> leftOver = recordedProcess(dir);
    if (leftOver.isEmpty()) {
      return;
    }
    Properties build = new Properties();
    if (Files.isRegularFile(dir.resolve(BUILD_BROKER))) {
      try (var in = Files.newBufferedReader(dir.resolve(BUILD_BROKER))) {
        build.load(in);
      }
    }
    long owner = Long.parseLong(build.getProperty("owner.pid", "-1"));
    if (owner != ProcessHandle.current().pid()
        && ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false)) {
      throw new IllegalStateException(
          "Another build (process "
              + owner
              + ") runs the suite's Kafka broker in "
              + dir
              + "; let it finish first");
    }
    System.out.println("Stopping the Kafka broker an earlier build left in " + dir);
    leftOver.get().destroy();
    if (!exited(leftOver.get(), STOP_TIMEOUT)) {
      leftOver.get().destroyForcibly();
      exited(leftOver.get(), STOP_TIMEOUT);
    }
  }

  /** Fails, naming the port, if another process listens on it. */
  private static void requireFree(int port) throws IOException {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    } catch (IOException e) {
      throw new IllegalStateException(
          "Port "
              + port
              + " of the suite's Kafka broker is taken (another build's broker?); choose others"
              + " with -Dit.kafka.port and -Dit.kafka.controller.port",
          e);
    }
  }

  private static void deleteRecursively(Path path) throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(path)) {
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.delete(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
  }
}
