package it.com.banhang.shop;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.conformance.Answer;
import com.banhang.conformance.Wire;
import groovy.json.JsonSlurper;
import io.restassured.path.json.JsonPath;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bad-input corpus (docs/testing.md, "The bad-input corpus"; docs/security.md, threat 9): every
 * request of {@code bad-input-corpus.txt}, written byte for byte over a raw socket (so that invalid
 * UTF-8, CR/LF inside a header and other bytes that HTTP client libraries refuse reach the server),
 * against both keyed operations, the payment ones against a real order created here. For the whole
 * corpus: no answer is a 5xx, every answer is a 4xx {@code application/problem+json} whose {@code
 * type}, {@code title} and {@code status} are there (also when the container answers itself), and
 * no case writes a row (idempotency records, orders, order lines, payments, the processor's webhook
 * events) or a gateway charge. The one exception is a correctly signed webhook of an event type the
 * shop does not process ({@code parked}): answered 204, it adds exactly one PARKED row to {@code
 * gateway_event} and nothing else. Every failing case is reported by its name.
 */
@RunOnceOnH2
class BadInputCorpusIT {

  private static final String CORPUS = "/bad-input-corpus.txt";

  /** Refused by Liberty's HTTP transport itself: a bare 400, before the application runs. */
  private static final String TRANSPORT = "transport-400";

  /**
   * Refused by an endpoint Liberty serves itself ({@code /health}, {@code /metrics}), whose answers
   * the application cannot shape: a 4xx with a short plain-text body, no HTML, no stack trace.
   */
  private static final String REFUSED = "refused";

  /**
   * Answered by the operator console's own protocol (Vaadin at {@code /admin}: its page, or its
   * JSON telling the browser to start over): never a 5xx, never a stack trace.
   */
  private static final String CONSOLE = "console";

  /**
   * A processor's webhook, correctly signed, of an event type the shop does not process: answered
   * 204 and kept once, PARKED (docs/payments.md, "Webhooks in"); the only case that may write a
   * row.
   */
  private static final String PARKED = "parked";

  private static final URI SHOP = URI.create(ShopApi.URL);

  /**
   * Everything a request could have written: key rows in any status (a refused body claims nothing,
   * so not even a released tombstone may appear), orders, order lines, payments, events; and, asked
   * of the sandbox, the gateway's charges.
   */
  private static final String COUNT_ROWS =
      "SELECT (SELECT COUNT(*) FROM idempotency_record), (SELECT COUNT(*) FROM shop_order),"
          + " (SELECT COUNT(*) FROM order_line), (SELECT COUNT(*) FROM payment),"
          + " (SELECT COUNT(*) FROM outbox_event), (SELECT COUNT(*) FROM gateway_event),"
          + " (SELECT COUNT(*) FROM gateway_event WHERE status = 'PARKED')";

  private static final HttpClient SANDBOX =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  /** The conformance kit's raw socket: writes each request byte for byte, reads any framing. */
  private static final Wire WIRE = new Wire(SHOP, Duration.ofSeconds(60));

  private static final String ALICE =
      "Authorization: Basic "
          + Base64.getEncoder()
              .encodeToString("alice:alice-secret".getBytes(StandardCharsets.UTF_8));

  /** One line of the corpus. */
  record Case(
      String name, String method, String path, String headers, String body, String expect) {}

  @Test
  void everyCaseIsAProblemAndWritesNothing() throws Exception {
    List<Case> corpus = load();
    assertThat(corpus).as("cases in %s", CORPUS).hasSizeGreaterThanOrEqualTo(200);
    String orderId = Payments.newOrder("alice");

    List<String> failures = new ArrayList<>();
    // One connection and one statement per case: the corpus has hundreds of cases, and a new
    // connection each (with its password exchange) was most of each case's time.
    try (Connection database = ShopDatabase.connect();
        PreparedStatement counts = database.prepareStatement(COUNT_ROWS)) {
      runCorpus(corpus, orderId, counts, failures);
    }
    assertThat(failures).as("failing cases of %s", CORPUS).isEmpty();
    assertThat(Sandbox.charges(orderId)).isZero();
  }

  private static void runCorpus(
      List<Case> corpus, String orderId, PreparedStatement counts, List<String> failures)
      throws Exception {
    Map<String, Long> before = rows(counts);
    Map<String, Long> millis = new LinkedHashMap<>();
    for (Case c : corpus) {
      long started = System.nanoTime();
      String failure;
      try {
        Answer answer = send(c, orderId);
        failure =
            switch (c.expect()) {
              case TRANSPORT -> judgeTransport(answer);
              case REFUSED -> judgeRefused(answer);
              case CONSOLE -> judgeConsole(answer);
              case PARKED -> answer.status() == 204 ? null : "expected 204, got " + answer.status();
              default -> judge(answer);
            };
      } catch (IOException e) {
        failure = "no answer: " + e;
      }
      Map<String, Long> after = rows(counts);
      Map<String, Long> expected = new LinkedHashMap<>(before);
      if (c.expect().equals(PARKED)) {
        expected.merge("gateway_event", 1L, Long::sum);
        expected.merge("gateway_event parked", 1L, Long::sum);
      }
      if (!after.equals(expected)) {
        failure =
            (failure == null ? "" : failure + "; ") + "wrote rows: " + before + " -> " + after;
      }
      if (failure != null) {
        failures.add(c.name() + ": " + failure);
      }
      before = after;
      millis.put(c.name(), (System.nanoTime() - started) / 1_000_000);
    }

    System.out.printf("bad-input corpus: %d cases, %d failed%n", corpus.size(), failures.size());
    failures.forEach(f -> System.out.println("  FAILED " + f));
    // Where the class's time goes, for the build's time budget (docs/testing.md, "Build time").
    millis.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(5)
        .forEach(e -> System.out.printf("  slowest: %s %d ms%n", e.getKey(), e.getValue()));
  }

  /**
   * A request the transport or Liberty's URI check refuses before the application: 400, with no
   * body or a short message, never an HTML page or a stack trace.
   */
  private static String judgeTransport(Answer answer) {
    String text = new String(answer.body(), StandardCharsets.UTF_8);
    if (answer.status() == 400
        && text.length() < 300
        && !text.contains("<")
        && !text.contains("Exception")) {
      return null;
    }
    return "expected the transport's bare 400, got "
        + answer.status()
        + " "
        + new String(answer.body(), StandardCharsets.UTF_8);
  }

  private static String judgeRefused(Answer answer) {
    String text = new String(answer.body(), StandardCharsets.UTF_8);
    String lower = text.toLowerCase(Locale.ROOT);
    boolean html =
        lower.contains("<html") || lower.contains("<!doctype") || lower.contains("<body");
    if (answer.status() >= 400
        && answer.status() < 500
        && text.length() < 300
        && !html
        && !text.contains("\tat ")) {
      return null;
    }
    return "expected a short plain 4xx, got " + answer.status() + " " + shorten(text);
  }

  private static String judgeConsole(Answer answer) {
    String text = new String(answer.body(), StandardCharsets.UTF_8);
    if (answer.status() < 500 && !text.contains("\tat ") && !text.contains("Exception")) {
      return null;
    }
    return "expected the console's own answer, got " + answer.status() + " " + shorten(text);
  }

  private static String shorten(String text) {
    return (text.length() > 160 ? text.substring(0, 160) + "..." : text).replace('\n', ' ');
  }

  /** Null when the answer is what the corpus requires; else what is wrong with it. */
  private static String judge(Answer answer) {
    List<String> wrong = new ArrayList<>();
    if (answer.status() < 400 || answer.status() > 499) {
      wrong.add("status " + answer.status());
    }
    String type = answer.header("content-type").orElse("");
    if (!type.startsWith("application/problem+json")) {
      wrong.add("content type '" + type + "'");
    }
    String text = new String(answer.body(), StandardCharsets.UTF_8);
    try {
      // Groovy's parser, which REST Assured brings: JsonPath would compile a script per lookup.
      if (!(new JsonSlurper().parseText(text) instanceof Map<?, ?> problem)) {
        throw new IllegalArgumentException("not an object");
      }
      if (!(problem.get("type") instanceof String t) || t.isBlank()) {
        wrong.add("no type");
      }
      if (!(problem.get("title") instanceof String t) || t.isBlank()) {
        wrong.add("no title");
      }
      if (!(problem.get("status") instanceof Integer s) || s != answer.status()) {
        wrong.add("status member " + problem.get("status"));
      }
    } catch (RuntimeException e) {
      wrong.add("body is not JSON");
    }
    if (wrong.isEmpty()) {
      return null;
    }
    String shown = text.length() > 160 ? text.substring(0, 160) + "..." : text;
    return String.join(", ", wrong) + " [" + answer.status() + " " + shown.replace('\n', ' ') + "]";
  }

  /** What the database and the sandbox hold now ({@link #COUNT_ROWS}). */
  private static Map<String, Long> rows(PreparedStatement counts) throws Exception {
    Map<String, Long> rows = new LinkedHashMap<>();
    try (ResultSet rs = counts.executeQuery()) {
      rs.next();
      rows.put("key rows", rs.getLong(1));
      rows.put("shop_order", rs.getLong(2));
      rows.put("order_line", rs.getLong(3));
      rows.put("payment", rs.getLong(4));
      rows.put("outbox_event", rs.getLong(5));
      rows.put("gateway_event", rs.getLong(6));
      rows.put("gateway_event parked", rs.getLong(7));
    }
    // The sandbox's counts over one kept-alive connection, not a new client per case.
    HttpResponse<String> stats =
        SANDBOX.send(
            HttpRequest.newBuilder(URI.create(Sandbox.URL + "/v1/stats")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(stats.statusCode()).as("the sandbox's stats").isEqualTo(200);
    JsonPath json = JsonPath.from(stats.body());
    rows.put("gateway charges", json.getLong("succeededCharges"));
    rows.put("gateway declines", json.getLong("declinedCharges"));
    return rows;
  }

  // ------------------------------------------------------------------ the wire

  private static Answer send(Case c, String orderId) throws Exception {
    Webhook webhook = Webhook.create();
    String bodyField = webhook.fill(fill(c.body(), orderId));
    String headers = webhook.sign(webhook.fill(fill(c.headers(), orderId)), bodyField);
    boolean anonymous = headers.contains("{noauth}");
    headers = headers.replace("{noauth}\\r\\n", "").replace("{noauth}", "");
    byte[] ownHeaders = decode(headers);
    byte[] body = decode(Webhook.sent(bodyField));
    String lower = new String(ownHeaders, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);

    ByteArrayOutputStream request = new ByteArrayOutputStream();
    request.write(c.method().getBytes(StandardCharsets.US_ASCII));
    request.write(' ');
    request.write(decode(fill(c.path(), orderId)));
    request.write(" HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
    line(request, "Host: " + SHOP.getHost() + ":" + SHOP.getPort());
    if (!anonymous && !hasHeader(lower, "authorization")) {
      line(request, ALICE);
    }
    if (ownHeaders.length > 0) {
      request.write(ownHeaders);
      request.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    if (!hasHeader(lower, "content-length") && !hasHeader(lower, "transfer-encoding")) {
      line(request, "Content-Length: " + body.length);
    }
    line(request, "Connection: close");
    request.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    request.write(body);
    return WIRE.sendBytes(request.toByteArray());
  }

  private static boolean hasHeader(String lowerCaseHeaders, String name) {
    return lowerCaseHeaders.startsWith(name + ":") || lowerCaseHeaders.contains("\n" + name + ":");
  }

  private static void line(ByteArrayOutputStream out, String text) throws IOException {
    out.write((text + "\r\n").getBytes(StandardCharsets.UTF_8));
  }

  // ------------------------------------------------------------------ the corpus file

  static List<Case> load() throws IOException {
    List<Case> cases = new ArrayList<>();
    try (InputStream in = BadInputCorpusIT.class.getResourceAsStream(CORPUS)) {
      assertThat(in).as("corpus %s on the class path", CORPUS).isNotNull();
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      for (String line : text.split("\n")) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("\t", -1);
        if (f.length != 6
            || !List.of("problem", TRANSPORT, REFUSED, CONSOLE, PARKED).contains(f[5])) {
          throw new IllegalStateException("a corpus line needs 6 fields: " + line);
        }
        cases.add(new Case(f[0], f[1], f[2], dash(f[3]), dash(f[4]), f[5]));
      }
    }
    return cases;
  }

  private static String dash(String field) {
    return field.equals("-") ? "" : field;
  }

  private static String fill(String field, String orderId) {
    return field
        .replace("{key}", ShopApi.newKey())
        .replace("{order}", orderId)
        .replace("{total}", Long.toString(Payments.TOTAL))
        .replace("{sku}", ShopApi.newSku());
  }

  /**
   * The processor's webhook placeholders of one case: a new event id, the time, and the signatures
   * of the body (docs of the corpus file's head).
   */
  private record Webhook(String id, long now) {

    private static final java.util.regex.Pattern CHANGED =
        java.util.regex.Pattern.compile("\\{byte:(.)/(.)\\}");

    static Webhook create() {
      return new Webhook(
          "evt_corpus_" + java.util.UUID.randomUUID().toString().replace("-", ""),
          java.time.Instant.now().getEpochSecond());
    }

    String fill(String field) {
      return field
          .replace("{evt}", id)
          .replace("{now}", Long.toString(now))
          .replace("{stale}", Long.toString(now - 360));
    }

    /** The headers with their signature placeholders replaced, over the body as signed. */
    String sign(String headers, String bodyField) {
      if (!headers.contains("signature}")) {
        return headers;
      }
      String signed =
          new String(decode(CHANGED.matcher(bodyField).replaceAll("$1")), StandardCharsets.UTF_8);
      return headers
          .replace("{signature}", GatewayWebhooks.sign(GatewayWebhooks.SECRET, id, now, signed))
          .replace(
              "{stale-signature}",
              GatewayWebhooks.sign(GatewayWebhooks.SECRET, id, now - 360, signed))
          .replace(
              "{other-signature}",
              GatewayWebhooks.sign(GatewayWebhooks.OTHER_SECRET, id, now, signed));
    }

    /** The body as sent: each {byte:X/Y} is Y. */
    static String sent(String bodyField) {
      return CHANGED.matcher(bodyField).replaceAll("$2");
    }
  }

  /** The corpus's escapes to bytes: \\, \r, \n, \t, \xHH, and \[N*text\] for repetition. */
  static byte[] decode(String field) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    decodeInto(field, out);
    return out.toByteArray();
  }

  private static void decodeInto(String field, ByteArrayOutputStream out) {
    int i = 0;
    while (i < field.length()) {
      char ch = field.charAt(i);
      if (ch != '\\') {
        int cp = field.codePointAt(i);
        out.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
        i += Character.charCount(cp);
        continue;
      }
      char next = field.charAt(i + 1);
      switch (next) {
        case '\\' -> out.write('\\');
        case 'r' -> out.write('\r');
        case 'n' -> out.write('\n');
        case 't' -> out.write('\t');
        case 'x' -> {
          out.write(Integer.parseInt(field.substring(i + 2, i + 4), 16));
          i += 2;
        }
        case '[' -> {
          int star = field.indexOf('*', i);
          int close = field.indexOf("\\]", star);
          int times = Integer.parseInt(field.substring(i + 2, star));
          ByteArrayOutputStream once = new ByteArrayOutputStream();
          decodeInto(field.substring(star + 1, close), once);
          byte[] unit = once.toByteArray();
          for (int n = 0; n < times; n++) {
            out.writeBytes(unit);
          }
          i = close;
        }
        default -> throw new IllegalArgumentException("unknown escape \\" + next + " in " + field);
      }
      i += 2;
    }
  }
}
