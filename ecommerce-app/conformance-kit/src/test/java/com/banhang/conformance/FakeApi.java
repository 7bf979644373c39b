package com.banhang.conformance;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParser;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A tiny keyed API on the JDK's HTTP server, for the kit's own tests: {@code POST /orders} and
 * {@code POST /orders/{id}/payments}, callers {@code alice} and {@code bob}. Without flaws it keeps
 * every rule of docs/contract.md that the kit checks; each {@link Flaw} breaks it in one way that a
 * real server could, so that the kit can be shown to notice.
 */
final class FakeApi implements AutoCloseable {

  /** One way to get idempotency wrong. */
  enum Flaw {
    /** Never reads the key: every request runs, a missing key included. */
    IGNORES_KEY,
    /** Reads the key but never replays: every retry creates another resource. */
    NEW_RESOURCE_ON_RETRY,
    /** Answers 500 with an HTML page to a body it cannot parse or bind. */
    SERVER_ERROR_ON_BAD_JSON,
    /** Answers its refusals as HTML pages. */
    HTML_ERRORS,
    /** Takes any header value as the key, as it is. */
    LENIENT_KEY_SYNTAX,
    /** No upper bound on a key's length. */
    ACCEPTS_LONG_KEYS,
    /** Refuses keys over 64 characters. */
    SHORT_KEYS_ONLY,
    /** Does not unquote an sf-string: {@code "k"} and {@code k} are two keys. */
    QUOTES_ARE_PART_OF_KEY,
    /** Fingerprints the body's bytes, not its JSON meaning. */
    RAW_BYTE_FINGERPRINT,
    /** Looks the key up, then stores it: a check-then-act race. */
    NO_LOCK,
    /** Answers 409 to a duplicate in flight without Retry-After. */
    NO_RETRY_AFTER,
    /** One key space for every caller. */
    GLOBAL_KEYS,
    /** The replay's body is built again, with a member of its own. */
    REPLAY_DIFFERS,
    /** The replay is not marked {@code Idempotent-Replayed: true}. */
    NO_REPLAY_HEADER,
    /** No {@code Idempotency-Key-Expires}. */
    NO_EXPIRY_HEADER,
    /** {@code Idempotency-Key-Expires} as ISO-8601, not an HTTP-date. */
    EXPIRY_ISO_8601,
    /** Claims the key before looking at the body, and stores the refusal as the key's answer. */
    STORES_REFUSALS,
    /** No limit on the body's size. */
    NO_SIZE_LIMIT,
    /** Reads any Content-Type as JSON. */
    ACCEPTS_ANY_CONTENT_TYPE,
    /** Takes the last of two members of the same name. */
    ACCEPTS_DUPLICATE_MEMBERS
  }

  static final String TYPE_BASE = "https://example.test/problems#";
  private static final int MAX_BODY = 65_536;
  private static final int MAX_DEPTH = 32;
  private static final Map<String, String> USERS =
      Map.of("alice", "alice-secret", "bob", "bob-secret");
  private static final DateTimeFormatter HTTP_DATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
          .withZone(ZoneOffset.UTC);
  private static final Pattern PAYMENTS = Pattern.compile("/orders/([^/]+)/payments");

  /** What a key is bound to: the request's fingerprint, then its answer. */
  private static final class Entry {
    final String fingerprint;
    volatile Stored answer;

    Entry(String fingerprint) {
      this.fingerprint = fingerprint;
    }
  }

  private record Stored(int status, Map<String, String> headers, byte[] body) {}

  /** A refusal, thrown from anywhere in a request's handling. */
  private static final class Refusal extends Exception {
    final int status;
    final String slug;

    Refusal(int status, String slug, String detail) {
      super(detail, null, false, false);
      this.status = status;
      this.slug = slug;
    }
  }

  private final Set<Flaw> flaws;
  private final HttpServer server;
  private final ExecutorService pool = Executors.newFixedThreadPool(24);
  private final Map<String, Entry> keys = new ConcurrentHashMap<>();
  private final Map<String, String> orderOwners = new ConcurrentHashMap<>();
  private final AtomicInteger created = new AtomicInteger();
  private final long workMillis;

  private FakeApi(Set<Flaw> flaws, long workMillis) throws IOException {
    this.flaws = flaws;
    this.workMillis = workMillis;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(pool);
    server.start();
  }

  static FakeApi start(Flaw... flaws) throws IOException {
    EnumSet<Flaw> set = EnumSet.noneOf(Flaw.class);
    set.addAll(List.of(flaws));
    // Long enough that identical requests released together meet while the first one works; the
    // flaws that only show when they meet get a wider window, so a slow machine still shows them.
    boolean race = set.contains(Flaw.NO_LOCK) || set.contains(Flaw.NO_RETRY_AFTER);
    return new FakeApi(set, race ? 1_000 : 300);
  }

  URI baseUrl() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Resources (orders and payments) created so far. */
  int created() {
    return created.get();
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }

  // ------------------------------------------------------------------ one request

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      Stored answer;
      try {
        answer = answer(exchange);
      } catch (Refusal refusal) {
        answer = problem(refusal);
      } catch (RuntimeException e) {
        answer = new Stored(500, Map.of("Content-Type", "text/html"), html(500));
      }
      write(exchange, answer);
    }
  }

  private Stored answer(HttpExchange exchange) throws Refusal, IOException {
    String tenant = tenant(exchange);
    String path = exchange.getRequestURI().getRawPath();
    Matcher payment = PAYMENTS.matcher(path);
    String operation;
    if (path.equals("/orders")) {
      operation = "orders.create";
    } else if (payment.matches()) {
      operation = "payments.charge";
    } else {
      throw new Refusal(404, "not-found", "no resource at " + path);
    }
    if (!exchange.getRequestMethod().equals("POST")) {
      throw new Refusal(405, "method-not-allowed", "POST only");
    }
    if (flaws.contains(Flaw.IGNORES_KEY)) {
      return run(tenant, operation, payment, validBody(exchange, operation).json());
    }
    String key = key(exchange.getRequestHeaders().get("Idempotency-Key"));
    String scope = (flaws.contains(Flaw.GLOBAL_KEYS) ? "*" : tenant) + " " + operation + " " + key;
    if (flaws.contains(Flaw.STORES_REFUSALS)) {
      // The refusal is kept as the key's answer, under the fingerprint of what was sent.
      byte[] raw = exchange.getRequestBody().readAllBytes();
      JsonObject body = null;
      Stored refused = null;
      try {
        body = validBody(exchange, operation, raw);
      } catch (Refusal refusal) {
        refused = problem(refusal);
      }
      String fingerprint =
          body == null
              ? sha256(path + "\n" + new String(raw, StandardCharsets.ISO_8859_1))
              : sha256(operation + "\n" + path + "\n" + canonical(body));
      Entry entry = new Entry(fingerprint);
      Entry held = keys.putIfAbsent(scope, entry);
      if (held != null) {
        return existing(held, fingerprint);
      }
      entry.answer = refused != null ? refused : run(tenant, operation, payment, body);
      return entry.answer;
    }
    Body request = validBody(exchange, operation);
    JsonObject body = request.json();
    String fingerprint =
        flaws.contains(Flaw.RAW_BYTE_FINGERPRINT)
            ? sha256(path + "\n" + new String(request.raw(), StandardCharsets.ISO_8859_1))
            : sha256(operation + "\n" + path + "\n" + canonical(body));
    if (flaws.contains(Flaw.NEW_RESOURCE_ON_RETRY)) {
      return run(tenant, operation, payment, body);
    }
    Entry entry = new Entry(fingerprint);
    Entry held;
    if (flaws.contains(Flaw.NO_LOCK)) {
      held = keys.get(scope);
      pause();
      if (held == null) {
        keys.put(scope, entry);
      }
    } else {
      held = keys.putIfAbsent(scope, entry);
    }
    if (held != null) {
      return existing(held, fingerprint);
    }
    try {
      pause();
      Stored stored = run(tenant, operation, payment, body);
      entry.answer = stored;
      return stored;
    } catch (Refusal | RuntimeException e) {
      // A failure before any effect releases the key.
      keys.remove(scope, entry);
      throw e;
    }
  }

  /** The answer to a key that is already held. */
  private Stored existing(Entry held, String fingerprint) throws Refusal {
    if (!held.fingerprint.equals(fingerprint)) {
      throw new Refusal(422, "idempotency-key-reused", "the key was used for another request");
    }
    Stored stored = held.answer;
    if (stored == null) {
      Refusal inUse = new Refusal(409, "idempotency-key-in-use", "the first attempt is running");
      throw inUse;
    }
    Map<String, String> headers = new TreeMap<>(stored.headers());
    if (!flaws.contains(Flaw.NO_REPLAY_HEADER)) {
      headers.put("Idempotent-Replayed", "true");
    }
    byte[] body = stored.body();
    if (flaws.contains(Flaw.REPLAY_DIFFERS)) {
      String text = new String(body, StandardCharsets.UTF_8);
      body =
          (text.substring(0, text.length() - 1) + ",\"replayedAt\":\"" + Instant.now() + "\"}")
              .getBytes(StandardCharsets.UTF_8);
    }
    return new Stored(stored.status(), headers, body);
  }

  /** The business effect: a new order, or a payment of one of the caller's orders. */
  private Stored run(String tenant, String operation, Matcher payment, JsonObject body)
      throws Refusal {
    String id = UUID.randomUUID().toString();
    String location;
    if (operation.equals("orders.create")) {
      orderOwners.put(id, tenant);
      location = "/orders/" + id;
    } else {
      if (!tenant.equals(orderOwners.get(payment.group(1)))) {
        throw new Refusal(404, "order-not-found", "no such order");
      }
      location = "/payments/" + id;
    }
    created.incrementAndGet();
    String answer =
        Json.createObjectBuilder()
            .add("id", id)
            .add("status", "CREATED")
            .add("createdAt", Instant.now().toString())
            .add("request", body)
            .build()
            .toString();
    Map<String, String> headers = new TreeMap<>();
    headers.put("Content-Type", "application/json");
    headers.put("Location", location);
    expiry(headers);
    return new Stored(201, headers, answer.getBytes(StandardCharsets.UTF_8));
  }

  private void expiry(Map<String, String> headers) {
    Instant expires = Instant.now().plusSeconds(86_400);
    if (flaws.contains(Flaw.EXPIRY_ISO_8601)) {
      headers.put("Idempotency-Key-Expires", expires.toString());
    } else if (!flaws.contains(Flaw.NO_EXPIRY_HEADER)) {
      headers.put("Idempotency-Key-Expires", HTTP_DATE.format(expires));
    }
  }

  private void pause() {
    try {
      Thread.sleep(workMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ------------------------------------------------------------------ caller and key

  private static String tenant(HttpExchange exchange) throws Refusal {
    String authorization = exchange.getRequestHeaders().getFirst("Authorization");
    if (authorization != null && authorization.startsWith("Basic ")) {
      String[] pair =
          new String(Base64.getDecoder().decode(authorization.substring(6)), StandardCharsets.UTF_8)
              .split(":", 2);
      if (pair.length == 2 && pair[1].equals(USERS.get(pair[0]))) {
        return pair[0];
      }
    }
    throw new Refusal(401, "unauthorized", "log in");
  }

  private String key(List<String> values) throws Refusal {
    if (values == null || values.isEmpty()) {
      throw new Refusal(400, "idempotency-key-missing", "send an Idempotency-Key");
    }
    if (values.size() > 1) {
      throw invalid("send one Idempotency-Key");
    }
    String value = values.get(0);
    if (flaws.contains(Flaw.LENIENT_KEY_SYNTAX)) {
      return value;
    }
    value = value.replaceAll("^[ \\t]+|[ \\t]+$", "");
    String key = value;
    if (value.startsWith("\"") && !flaws.contains(Flaw.QUOTES_ARE_PART_OF_KEY)) {
      if (value.length() < 2 || !value.endsWith("\"")) {
        throw invalid("a quoted key needs its closing quote");
      }
      key = value.substring(1, value.length() - 1);
      if (key.contains("\\") || key.contains("\"")) {
        throw invalid("this API takes no escapes in a quoted key");
      }
    }
    int max = flaws.contains(Flaw.SHORT_KEYS_ONLY) ? 64 : 255;
    if (key.isEmpty() || (key.length() > max && !flaws.contains(Flaw.ACCEPTS_LONG_KEYS))) {
      throw invalid("a key has 1 to " + max + " characters");
    }
    for (char c : key.toCharArray()) {
      if (c < 0x21 || c > 0x7E) {
        throw invalid("a key is printable ASCII without spaces");
      }
    }
    return key;
  }

  private static Refusal invalid(String detail) {
    return new Refusal(400, "idempotency-key-invalid", detail);
  }

  // ------------------------------------------------------------------ the body

  /** A body that passed every check: as JSON, and as the bytes sent. */
  private record Body(JsonObject json, byte[] raw) {}

  private Body validBody(HttpExchange exchange, String operation) throws Refusal, IOException {
    String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
    if (!flaws.contains(Flaw.ACCEPTS_ANY_CONTENT_TYPE)
        && (contentType == null || !contentType.startsWith("application/json"))) {
      throw new Refusal(415, "unsupported-media-type", "send application/json");
    }
    String length = exchange.getRequestHeaders().getFirst("Content-Length");
    if (!flaws.contains(Flaw.NO_SIZE_LIMIT)
        && length != null
        && Long.parseLong(length) > MAX_BODY) {
      throw tooLarge();
    }
    byte[] raw = read(exchange.getRequestBody());
    return new Body(validBody(exchange, operation, raw), raw);
  }

  private JsonObject validBody(HttpExchange exchange, String operation, byte[] raw) throws Refusal {
    if (flaws.contains(Flaw.STORES_REFUSALS)) {
      String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
      if (contentType == null || !contentType.startsWith("application/json")) {
        throw new Refusal(415, "unsupported-media-type", "send application/json");
      }
      if (raw.length > MAX_BODY) {
        throw tooLarge();
      }
    }
    try {
      String text = strictUtf8(raw);
      JsonObject body = parse(text);
      validateShape(operation, body);
      return body;
    } catch (Refusal refusal) {
      if (flaws.contains(Flaw.SERVER_ERROR_ON_BAD_JSON) && refusal.status == 400) {
        throw new IllegalStateException("the parser gave up", refusal);
      }
      throw refusal;
    }
  }

  private byte[] read(InputStream in) throws IOException, Refusal {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    for (int n; (n = in.read(buffer)) != -1; ) {
      out.write(buffer, 0, n);
      if (out.size() > MAX_BODY && !flaws.contains(Flaw.NO_SIZE_LIMIT)) {
        throw tooLarge();
      }
    }
    return out.toByteArray();
  }

  private static Refusal tooLarge() {
    return new Refusal(413, "request-body-too-large", "at most " + MAX_BODY + " bytes");
  }

  private static String strictUtf8(byte[] raw) throws Refusal {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(raw))
          .toString();
    } catch (CharacterCodingException e) {
      throw malformed("the body is not UTF-8");
    }
  }

  /** One JSON object: nesting at most {@link #MAX_DEPTH} deep, and no member named twice. */
  private JsonObject parse(String text) throws Refusal {
    try (JsonParser parser = Json.createParser(new StringReader(text))) {
      Deque<Set<String>> objects = new ArrayDeque<>();
      int depth = 0;
      while (parser.hasNext()) {
        switch (parser.next()) {
          case START_OBJECT -> {
            depth++;
            objects.push(new HashSet<>());
          }
          case START_ARRAY -> {
            depth++;
            objects.push(Set.of());
          }
          case END_OBJECT, END_ARRAY -> {
            depth--;
            objects.pop();
          }
          case KEY_NAME -> {
            if (!objects.peek().add(parser.getString())
                && !flaws.contains(Flaw.ACCEPTS_DUPLICATE_MEMBERS)) {
              throw new Refusal(400, "duplicate-json-member", "a member is named twice");
            }
          }
          default -> {}
        }
        if (depth > MAX_DEPTH) {
          throw new Refusal(400, "json-nesting-too-deep", "at most " + MAX_DEPTH + " levels");
        }
      }
    } catch (RuntimeException e) {
      throw malformed("not JSON");
    }
    try {
      JsonValue value = Json.createReader(new StringReader(text)).readValue();
      if (value instanceof JsonObject object) {
        return object;
      }
      throw malformed("not a JSON object");
    } catch (RuntimeException e) {
      throw malformed("not JSON");
    }
  }

  private static void validateShape(String operation, JsonObject body) throws Refusal {
    if (operation.equals("orders.create")) {
      requireString(body, "currency");
      if (!(body.get("items") instanceof JsonArray items) || items.isEmpty()) {
        throw malformed("items must be a non-empty array");
      }
      for (JsonValue item : items) {
        if (!(item instanceof JsonObject line)) {
          throw malformed("an item is an object");
        }
        requireString(line, "sku");
        requireInteger(line, "quantity");
        requireInteger(line, "unitPrice");
      }
    } else {
      requireInteger(body, "amount");
      requireString(body, "currency");
      requireString(body, "paymentMethod");
    }
  }

  private static void requireString(JsonObject object, String name) throws Refusal {
    if (!(object.get(name) instanceof JsonString)) {
      throw malformed(name + " must be a string");
    }
  }

  /** An integer, written either way: 1 and 1.0 are the same number. */
  private static void requireInteger(JsonObject object, String name) throws Refusal {
    if (!(object.get(name) instanceof JsonNumber number)
        || number.bigDecimalValue().stripTrailingZeros().scale() > 0) {
      throw malformed(name + " must be an integer");
    }
  }

  private static Refusal malformed(String detail) {
    return new Refusal(400, "malformed-request-body", detail);
  }

  /** Members sorted, numbers by value, no whitespace: docs/contract.md section 4, simplified. */
  static String canonical(JsonValue value) {
    return switch (value.getValueType()) {
      case OBJECT -> {
        StringBuilder out = new StringBuilder("{");
        new TreeMap<>((JsonObject) value)
            .forEach(
                (name, member) ->
                    out.append(out.length() > 1 ? "," : "")
                        .append(Json.createValue(name))
                        .append(':')
                        .append(canonical(member)));
        yield out.append('}').toString();
      }
      case ARRAY -> {
        StringBuilder out = new StringBuilder("[");
        for (JsonValue item : (JsonArray) value) {
          out.append(out.length() > 1 ? "," : "").append(canonical(item));
        }
        yield out.append(']').toString();
      }
      case NUMBER -> {
        BigDecimal number = ((JsonNumber) value).bigDecimalValue().stripTrailingZeros();
        yield number.signum() == 0 ? "0" : number.toPlainString();
      }
      case STRING -> Json.createValue(((JsonString) value).getString()).toString();
      default -> value.toString();
    };
  }

  // ------------------------------------------------------------------ answers

  private Stored problem(Refusal refusal) {
    Map<String, String> headers = new TreeMap<>();
    if (refusal.status == 409 && !flaws.contains(Flaw.NO_RETRY_AFTER)) {
      headers.put("Retry-After", "1");
    }
    if (flaws.contains(Flaw.HTML_ERRORS)) {
      headers.put("Content-Type", "text/html");
      return new Stored(refusal.status, headers, html(refusal.status));
    }
    headers.put("Content-Type", "application/problem+json");
    String body =
        Json.createObjectBuilder()
            .add("type", TYPE_BASE + refusal.slug)
            .add("title", refusal.slug)
            .add("status", refusal.status)
            .add("detail", refusal.getMessage())
            .build()
            .toString();
    return new Stored(refusal.status, headers, body.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] html(int status) {
    return ("<html><body><h1>Error " + status + "</h1></body></html>")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static void write(HttpExchange exchange, Stored answer) throws IOException {
    answer.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
    byte[] body = answer.body();
    exchange.sendResponseHeaders(answer.status(), body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      exchange.getResponseBody().write(body);
    }
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** For a test of the fake itself: the canonical form of a JSON text. */
  static String canonical(String json) {
    return canonical(Json.createReader(new ByteArrayInputStream(json.getBytes())).readValue());
  }
}
