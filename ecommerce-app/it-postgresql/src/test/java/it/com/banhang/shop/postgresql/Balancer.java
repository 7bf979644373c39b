package it.com.banhang.shop.postgresql;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HAProxy in front of shop nodes, as a deployment would put it (docs/scaling.md, "Behind a load
 * balancer"): Debian's haproxy package (scripts/verify.sh installs it), run by the test in the
 * foreground ({@code haproxy -db}) with a configuration written here, never as the machine's
 * service. It checks each node's readiness ({@code GET /health/ready}), logs every request with its
 * {@code Idempotency-Key}, the node that had it and how it ended, and takes an operator's commands
 * (drain, ready) on its runtime API, a Unix socket in its folder.
 */
final class Balancer implements AutoCloseable {

  /** One request as the balancer logged it when it ended. */
  record Logged(
      int line,
      String key,
      String server,
      int status,
      String termination,
      String retries,
      String request) {

    /** The node's connection broke while it held the request: the node died under it. */
    boolean cutByTheServer() {
      return termination.startsWith("S");
    }

    /** An answer the storm's client keeps: 2xx, and any 4xx but 409 and 429. */
    boolean isFinal() {
      return (status >= 200 && status < 300)
          || (status >= 400 && status < 500 && status != 409 && status != 429);
    }
  }

  private static final Pattern REQUEST =
      Pattern.compile(
          "^req key=(\\S*) server=(\\S+) status=(-?\\d+) term=(\\S+) retries=(\\S+) time=\\S+"
              + " (.*)$");

  private final Process process;
  private final Path folder;
  final String url;

  private Balancer(Process process, Path folder, String url) {
    this.process = process;
    this.folder = folder;
    this.url = url;
  }

  /**
   * Starts HAProxy on {@code 127.0.0.1:port} in front of {@code nodes} (a name for each node's base
   * URL), writing its configuration, log and socket to {@code folder}, and waits until it reports
   * every node up.
   */
  static Balancer start(Path folder, int port, Map<String, String> nodes) throws Exception {
    Files.createDirectories(folder);
    Path config = folder.resolve("haproxy.cfg");
    Files.deleteIfExists(folder.resolve("admin.sock"));
    Files.writeString(config, configuration(folder, port, nodes));
    Path log = folder.resolve("haproxy.log");
    Process process =
        new ProcessBuilder(haproxy(), "-db", "-f", config.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    Balancer balancer = new Balancer(process, folder, "http://127.0.0.1:" + port);
    try {
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .ignoreExceptions()
          .until(() -> balancer.allUp(nodes.keySet()));
    } catch (RuntimeException e) {
      balancer.close();
      throw new IllegalStateException(
          "HAProxy did not report every node up; its log: " + Files.readString(log), e);
    }
    return balancer;
  }

  /**
   * The configuration. Each line's reason is in its comment, so that the file in target/ reads on
   * its own.
   */
  private static String configuration(Path folder, int port, Map<String, String> nodes) {
    StringBuilder servers = new StringBuilder();
    nodes.forEach(
        (name, base) ->
            servers
                .append("    server ")
                .append(name)
                .append(' ')
                .append(base.replaceFirst("^http://", "").replace("localhost", "127.0.0.1"))
                .append(" check\n"));
    return """
        # Written by it-postgresql's Balancer for one test run (docs/scaling.md,
        # "Behind a load balancer"). HAProxy runs in the foreground as the test's child.
        global
            # Every log line to standard output, which the test writes to haproxy.log.
            log stdout format raw local0
            # The runtime API, for the operator's commands of a rolling restart
            # (set server nodes/<name> state drain|ready) and the nodes' states (show stat).
            stats socket %1$s/admin.sock mode 600 level admin

        defaults
            mode http
            log global
            option dontlognull
            timeout connect 1s
            timeout client 60s
            # Longer than any answer of the shop: its slowest holds the gateway's read timeout.
            timeout server 60s
            timeout http-request 10s
            timeout queue 10s
            # Resend only what never reached a node. A connection that could not be made
            # (the node is dead and the health check has not yet seen it) carried no request,
            # so it is tried again on another node (redispatch). Nothing else is resent: a
            # request that reached a node may have claimed its key or charged the card before
            # the answer was lost, and only the client may decide to retry it, with the same
            # Idempotency-Key (docs/idempotency.md). HAProxy cannot know a request carries a
            # key, and its own resend of a keyless POST would be a second order.
            retries 2
            retry-on conn-failure
            option redispatch 1
            # The balancer's own errors in the shop's contract (docs/problems.md): a problem
            # document with Retry-After, so that a client retries them like the shop's 503.
            http-error status 502 content-type application/problem+json string "{\\"type\\":\\"about:blank\\",\\"title\\":\\"Bad Gateway\\",\\"status\\":502,\\"detail\\":\\"The node lost the request. Retry with the same Idempotency-Key.\\"}" hdr Retry-After 1
            http-error status 503 content-type application/problem+json string "{\\"type\\":\\"about:blank\\",\\"title\\":\\"Service Unavailable\\",\\"status\\":503,\\"detail\\":\\"No node can take the request. Retry with the same Idempotency-Key.\\"}" hdr Retry-After 1
            http-error status 504 content-type application/problem+json string "{\\"type\\":\\"about:blank\\",\\"title\\":\\"Gateway Timeout\\",\\"status\\":504,\\"detail\\":\\"The node did not answer in time. Retry with the same Idempotency-Key.\\"}" hdr Retry-After 1

        frontend shop
            bind 127.0.0.1:%2$d
            # The key of each request, for the log (the test's keys only: haproxy.log stays
            # in target/). A production log keeps it only as long as the keys themselves.
            http-request capture req.hdr(Idempotency-Key) len 100
            # One request per client connection. On a kept-alive connection, a request that a
            # node's death cut is not answered and not logged: HAProxy closes the client's
            # connection without a word (its client must retry, as after any keep-alive race),
            # which would hide from the log exactly the requests this test follows. Closed after
            # each answer, every request is first on its connection, and a cut one is answered
            # 502 (below) and logged with termination state SH.
            option httpclose
            log-format "req key=%%[capture.req.hdr(0)] server=%%s status=%%ST term=%%tsc retries=%%rc time=%%Ta %%HM %%HU"
            default_backend nodes

        backend nodes
            balance roundrobin
            # A node takes requests while its readiness says so (MicroProfile Health: the
            # database, the migrations, the gateway). Checked every 500 ms; two failures take
            # it out and two successes bring it back. A dead node's port refuses at once, so
            # it is out within about a second. A living node's answer may take a while under
            # load (its gateway probe is bounded at 5 s): a check waits as long, so that a busy
            # node is not taken out for being slow.
            option httpchk GET /health/ready
            http-check expect status 200
            timeout check 5s
            default-server inter 500ms fastinter 250ms downinter 500ms fall 2 rise 2
        %3$s"""
        .formatted(folder.toAbsolutePath(), port, servers);
  }

  /** Debian's haproxy (in /usr/sbin, often not on a user's PATH). */
  private static String haproxy() {
    for (String candidate : List.of("/usr/sbin/haproxy", "/usr/bin/haproxy")) {
      if (Files.isExecutable(Path.of(candidate))) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        "haproxy is not installed: scripts/verify.sh installs it from Debian's packages"
            + " (docs/testing.md, \"What the build needs\")");
  }

  /** The balancer's state of node {@code server}: UP, DOWN, DRAIN, MAINT, ... */
  String status(String server) throws IOException {
    return stat(server).get("status");
  }

  boolean isUp(String server) throws IOException {
    return "UP".equals(status(server));
  }

  private boolean allUp(Iterable<String> servers) throws IOException {
    for (String server : servers) {
      if (!isUp(server)) {
        return false;
      }
    }
    return true;
  }

  /** Requests the balancer has sent node {@code server} so far. */
  long requestsSent(String server) throws IOException {
    return Long.parseLong(stat(server).get("stot"));
  }

  /**
   * Whether node {@code server} holds a request whose answer it has kept waiting for at least two
   * seconds ({@code show sess}: the response's read timeout, {@code timeout server} of 60 s, has 58
   * s or less left).
   */
  boolean holdsARequestFor2Seconds(String server) throws IOException {
    for (String stream : command("show sess").split("\n")) {
      if (stream.contains(" srv=" + server + " ")) {
        Matcher left = RESPONSE_TIMEOUT_LEFT.matcher(stream);
        if (left.find() && Integer.parseInt(left.group(1)) <= 58) {
          return true;
        }
      }
    }
    return false;
  }

  private static final Pattern RESPONSE_TIMEOUT_LEFT =
      Pattern.compile("rp\\[[^]]*rx=(\\d+)s[,\\]]");

  /** Requests node {@code server} holds at this moment. */
  int currentRequests(String server) throws IOException {
    return Integer.parseInt(stat(server).get("scur"));
  }

  /**
   * An operator's command on the runtime API: {@code drain} (no new request, the ones in flight
   * finish) or {@code ready}.
   */
  void setState(String server, String state) throws IOException {
    String answer = command("set server nodes/" + server + " state " + state);
    if (!answer.isBlank()) {
      throw new IllegalStateException("HAProxy refused the state " + state + ": " + answer);
    }
  }

  /** The line of {@code show stat} for the node, by column name. */
  private Map<String, String> stat(String server) throws IOException {
    String[] lines = command("show stat").split("\n");
    List<String> columns = Arrays.asList(lines[0].replaceFirst("^# ", "").split(",", -1));
    for (String line : lines) {
      List<String> values = Arrays.asList(line.split(",", -1));
      if (values.size() > 1 && values.get(0).equals("nodes") && values.get(1).equals(server)) {
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 0; i < columns.size() && i < values.size(); i++) {
          row.put(columns.get(i), values.get(i));
        }
        return row;
      }
    }
    throw new IllegalStateException("no node " + server + " in HAProxy's stats");
  }

  private String command(String command) throws IOException {
    try (SocketChannel socket = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      socket.connect(UnixDomainSocketAddress.of(folder.resolve("admin.sock")));
      socket.write(ByteBuffer.wrap((command + "\n").getBytes(StandardCharsets.UTF_8)));
      StringBuilder answer = new StringBuilder();
      ByteBuffer buffer = ByteBuffer.allocate(8192);
      while (socket.read(buffer) >= 0) {
        buffer.flip();
        answer.append(StandardCharsets.UTF_8.decode(buffer));
        buffer.clear();
      }
      return answer.toString();
    }
  }

  /** Every request the balancer has logged so far, in the order they ended. */
  List<Logged> requests() throws IOException {
    List<Logged> requests = new ArrayList<>();
    List<String> lines = Files.readAllLines(folder.resolve("haproxy.log"));
    for (int i = 0; i < lines.size(); i++) {
      Matcher request = REQUEST.matcher(lines.get(i));
      if (request.matches()) {
        requests.add(
            new Logged(
                i,
                request.group(1).equals("-") ? "" : request.group(1),
                request.group(2),
                Integer.parseInt(request.group(3)),
                request.group(4),
                request.group(5),
                request.group(6)));
      }
    }
    return requests;
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy(); // SIGTERM: HAProxy stops at once
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
