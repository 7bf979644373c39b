package com.banhang.conformance;

import com.banhang.conformance.Target.Intent;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The rules, each judged with HTTP alone. "draft" is the IETF HTTPAPI working group's
 * draft-ietf-httpapi-idempotency-key-header; "contract.md" is this repository's docs/contract.md.
 */
public final class Rules {

  /** IMF-fixdate, the one HTTP-date form a sender generates (RFC 9110 section 5.6.7). */
  static final DateTimeFormatter IMF_FIXDATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
          .withZone(ZoneOffset.UTC);

  private Rules() {}

  /** Every rule, in the order the report prints them. */
  public static List<Rule> all() {
    List<Rule> rules = new ArrayList<>();
    rules.add(
        new Rule(
            "key.missing",
            "no Idempotency-Key is 400, a problem document",
            "draft §2.7, contract.md §3",
            t -> {
              Intent intent = t.intent(t.config().tenantA());
              return problem(t, t.send(intent, null), 400, "idempotency-key-missing");
            }));
    rules.add(
        malformedKey(
            "key.empty",
            "an empty Idempotency-Key is 400",
            "draft §2.1, contract.md §3",
            true,
            t -> List.of("")));
    rules.add(
        malformedKey(
            "key.too-long",
            "a key one character over the longest is 400",
            "contract.md §3",
            false,
            t -> List.of(keyOfLength(t.config().maxKeyLength() + 1))));
    rules.add(
        new Rule(
            "key.longest-accepted",
            "a key of the longest length is accepted",
            "contract.md §3",
            t -> {
              Intent intent = t.intent(t.config().tenantA());
              firstAnswer(t, intent, keyOfLength(t.config().maxKeyLength()));
              return Verdict.pass();
            }));
    rules.add(
        malformedKey(
            "key.control-character",
            "a key with a control character (SOH, TAB) is 400",
            "draft §2.1 (RFC 8941 §3.3.3), contract.md §3",
            true,
            t -> List.of("kit\u0001" + Target.newKey(), "kit\t" + Target.newKey())));
    rules.add(
        malformedKey(
            "key.space",
            "a bare key with a space inside is 400",
            "draft §2.1, contract.md §3",
            false,
            t -> List.of("kit " + Target.newKey())));
    rules.add(
        malformedKey(
            "key.unterminated-quote",
            "a quoted key without its closing quote is 400",
            "draft §2.1 (RFC 8941 §4.2.5), contract.md §3",
            false,
            t -> List.of("\"" + Target.newKey())));
    rules.add(
        new Rule(
            "key.both-forms",
            "a bare token and a quoted sf-string name the same key",
            "draft §2.1, contract.md §3",
            Rules::bothForms));
    rules.add(
        new Rule(
            "replay.identical",
            "a retry gets the first answer byte for byte, marked Idempotent-Replayed",
            "draft §2.6, contract.md §5",
            Rules::replayIdentical));
    rules.add(
        new Rule(
            "key.reused-other-body",
            "the key with another body is 422; the first request still gets its answer",
            "draft §2.7, contract.md §5",
            Rules::reusedOtherBody));
    rules.add(
        new Rule(
            "key.reused-creates-nothing",
            "the 422 for another body leaves exactly one resource",
            "contract.md §5, §6",
            t ->
                Verdict.notCheckable(
                    "how many resources or rows exist is not visible over HTTP: it needs the"
                        + " server's store; key.reused-other-body checks what HTTP can (the"
                        + " original request still gets the first answer)")));
    rules.add(
        new Rule(
            "fingerprint.respelt-body",
            "the same JSON respelt (member order, whitespace, 1 as 1.0) is a replay, not 422",
            "draft §2.4, contract.md §4",
            Rules::respeltBody));
    rules.add(
        new Rule(
            "concurrency.duplicates",
            "identical requests at once: one success, the rest its replay or 409 + Retry-After",
            "draft §2.7, contract.md §5, §6",
            Rules::concurrentDuplicates));
    rules.add(
        new Rule(
            "tenant.independent",
            "another caller's same key is its own key",
            "contract.md §2",
            Rules::tenantIndependent));
    rules.add(
        new Rule(
            "expiry.advertised",
            "the first answer has Idempotency-Key-Expires, an IMF-fixdate in the future",
            "draft §2.3, contract.md §5",
            Rules::expiryAdvertised));
    rules.add(
        badBody(
            "body.truncated-json",
            "a JSON body cut in half",
            List.of("malformed-request-body"),
            (i, o) -> {
              byte[] bytes = i.bytes();
              return bytes.length < 2 ? null : Arrays.copyOf(bytes, bytes.length / 2);
            },
            Target.JSON));
    rules.add(
        badBody(
            "body.wrong-types",
            "a body whose members have the wrong JSON types",
            List.of("malformed-request-body", "invalid-request-body"),
            (i, o) -> bytes(JsonSpelling.wrongTypes(o)),
            Target.JSON));
    rules.add(
        new Rule(
            "body.too-large",
            "a body over the size limit: a 4xx problem (no 5xx, no HTML), the key left unused",
            "contract.md §4, §5",
            t ->
                badBody(
                    t,
                    List.of("request-body-too-large"),
                    (i, o) ->
                        JsonSpelling.withLeadingMember(
                            o,
                            "conformanceKitPadding",
                            bytes("\"" + "x".repeat(t.config().hugeBodyBytes()) + "\"")),
                    Target.JSON)));
    rules.add(
        badBody(
            "body.wrong-content-type",
            "a JSON body sent as text/plain",
            List.of("unsupported-media-type"),
            (i, o) -> i.bytes(),
            "text/plain; charset=UTF-8"));
    rules.add(
        badBody(
            "body.duplicate-member",
            "a body naming a member twice",
            List.of("duplicate-json-member"),
            (i, o) -> o.isEmpty() ? null : bytes(JsonSpelling.duplicateFirstMember(o)),
            Target.JSON));
    rules.add(
        new Rule(
            "body.deep-nesting",
            "deeply nested arrays: a 4xx problem (no 5xx, no HTML), the key left unused",
            "contract.md §4, §5",
            t ->
                badBody(
                    t,
                    List.of("json-nesting-too-deep"),
                    (i, o) -> {
                      int depth = t.config().nestingDepth();
                      return JsonSpelling.withLeadingMember(
                          o, "conformanceKitNesting", bytes("[".repeat(depth) + "]".repeat(depth)));
                    },
                    Target.JSON)));
    rules.add(
        badBody(
            "body.invalid-utf8",
            "a body with bytes that are not UTF-8",
            List.of("malformed-request-body"),
            (i, o) ->
                JsonSpelling.withLeadingMember(
                    o, "conformanceKitText", new byte[] {'"', (byte) 0xC3, '(', (byte) 0xFF, '"'}),
            Target.JSON));
    return List.copyOf(rules);
  }

  // ------------------------------------------------------------------ the key header

  private static Rule malformedKey(
      String id, String text, String source, boolean raw, Function<Target, List<String>> keys) {
    return new Rule(
        id,
        text,
        source,
        t -> {
          for (String key : keys.apply(t)) {
            Intent intent = t.intent(t.config().tenantA());
            Answer answer =
                raw ? t.sendRaw(intent, key, intent.bytes(), Target.JSON) : t.send(intent, key);
            Verdict verdict = problem(t, answer, 400, "idempotency-key-invalid");
            if (verdict.grade() != Verdict.Grade.PASS) {
              return Verdict.fail("key " + printable(key) + ": " + verdict.detail());
            }
          }
          return Verdict.pass();
        });
  }

  /** A fresh key of exactly {@code length} characters (a UUID, padded or cut). */
  static String keyOfLength(int length) {
    String unique = UUID.randomUUID().toString().replace("-", "");
    String key = length > unique.length() ? "k".repeat(length - unique.length()) + unique : unique;
    return key.substring(key.length() - length);
  }

  private static Verdict bothForms(Target t) throws IOException, InterruptedException {
    String[][] orders = {{"bare", "quoted"}, {"quoted", "bare"}};
    for (String[] order : orders) {
      Intent intent = t.intent(t.config().tenantA());
      String key = Target.newKey();
      Answer first = firstAnswer(t, intent, spell(key, order[0]));
      Answer second = t.send(intent, spell(key, order[1]));
      if (!sameAnswer(first, second)) {
        return Verdict.fail(
            "the key sent "
                + order[0]
                + " then "
                + order[1]
                + " was answered "
                + first.summary()
                + ", then "
                + second.summary()
                + ": not the first answer again");
      }
    }
    return Verdict.pass();
  }

  private static String spell(String key, String form) {
    return form.equals("quoted") ? "\"" + key + "\"" : key;
  }

  // ------------------------------------------------------------------ replay and reuse

  private static Verdict replayIdentical(Target t) throws IOException, InterruptedException {
    Intent intent = t.intent(t.config().tenantA());
    String key = Target.newKey();
    Answer first = firstAnswer(t, intent, key);
    Answer replay = t.send(intent, key);
    List<String> wrong = new ArrayList<>();
    if (replay.status() != first.status()) {
      wrong.add("status " + replay.status() + " instead of " + first.status());
    }
    if (!Arrays.equals(replay.body(), first.body())) {
      wrong.add("body differs: first " + first.summary() + ", replay " + replay.summary());
    }
    for (String header : List.of("Content-Type", "Location")) {
      if (!replay.header(header).equals(first.header(header))) {
        wrong.add(
            header
                + " "
                + replay.header(header).orElse("absent")
                + " instead of "
                + first.header(header).orElse("absent"));
      }
    }
    if (!replay.replayed()) {
      wrong.add("no Idempotent-Replayed: true on the replay");
    }
    if (first.replayed()) {
      wrong.add("Idempotent-Replayed: true on the first answer");
    }
    return wrong.isEmpty() ? Verdict.pass() : Verdict.fail(String.join("; ", wrong));
  }

  private static Verdict reusedOtherBody(Target t) throws IOException, InterruptedException {
    Intent intent = t.intent(t.config().tenantA());
    String key = Target.newKey();
    Answer first = firstAnswer(t, intent, key);
    Answer reuse = t.send(intent, key, otherBody(intent));
    Verdict verdict = problem(t, reuse, 422, "idempotency-key-reused");
    if (verdict.grade() != Verdict.Grade.PASS) {
      return Verdict.fail("another body under the key: " + verdict.detail());
    }
    Answer again = t.send(intent, key);
    if (!sameAnswer(first, again)) {
      return Verdict.fail(
          "after the 422, the original request got "
              + again.summary()
              + " instead of the first answer "
              + first.summary());
    }
    return Verdict.pass();
  }

  /**
   * Another request of the same intent: the template with another {@code {{unique}}}, or, when the
   * template has none, the body with one more member.
   */
  static byte[] otherBody(Intent intent) {
    String other = "kit-" + UUID.randomUUID();
    if (intent.body().contains(intent.unique())) {
      return bytes(intent.body().replace(intent.unique(), other));
    }
    JsonObject object = JsonSpelling.object(intent.body()).orElseThrow(() -> notAnObject());
    return bytes(
        JsonSpelling.withLeadingMember(object, "conformanceKitVariant", "\"" + other + "\""));
  }

  private static Verdict respeltBody(Target t) throws IOException, InterruptedException {
    Intent intent = t.intent(t.config().tenantA());
    Map<String, String> respellings = JsonSpelling.respellings(intent.body());
    if (respellings.isEmpty()) {
      return Verdict.notCheckable("the body template is not JSON, so it has no other spelling");
    }
    String key = Target.newKey();
    Answer first = firstAnswer(t, intent, key);
    for (Map.Entry<String, String> respelt : respellings.entrySet()) {
      Answer answer = t.send(intent, key, bytes(respelt.getValue()));
      if (!sameAnswer(first, answer)) {
        return Verdict.fail(
            "the body with "
                + respelt.getKey()
                + " changed was answered "
                + answer.summary()
                + " instead of the first answer");
      }
    }
    return Verdict.pass();
  }

  // ------------------------------------------------------------------ concurrency

  private static Verdict concurrentDuplicates(Target t) throws Exception {
    Intent intent = t.intent(t.config().tenantA());
    String key = Target.newKey();
    int n = t.config().concurrency();
    List<Answer> answers = race(n, () -> t.send(intent, key));

    List<Answer> originals = answers.stream().filter(a -> a.success() && !a.replayed()).toList();
    if (originals.size() != 1) {
      boolean alike =
          originals.size() > 1
              && originals.stream().allMatch(a -> Arrays.equals(a.body(), originals.get(0).body()));
      return Verdict.fail(
          originals.size()
              + " of "
              + n
              + " identical requests were answered as first attempts (2xx without"
              + " Idempotent-Replayed: true), not exactly one: "
              + statuses(answers)
              + (alike ? " (their bodies are identical: replays not marked?)" : ""));
    }
    Answer original = originals.get(0);
    for (Answer answer : answers) {
      if (answer == original) {
        continue;
      }
      if (answer.status() == 409) {
        if (answer.header("Retry-After").filter(Rules::retryAfter).isEmpty()) {
          return Verdict.fail("a 409 without a valid Retry-After: " + answer.summary());
        }
        Optional<String> notAProblem = Problems.notAProblem(answer);
        if (notAProblem.isPresent()) {
          return Verdict.fail("a 409: " + notAProblem.get());
        }
        continue;
      }
      if (!answer.replayed() || !sameAnswer(original, answer)) {
        return Verdict.fail(
            "an answer that is neither the first answer's replay nor 409: "
                + answer.summary()
                + " (first answer "
                + original.summary()
                + ")");
      }
    }
    Answer after = t.send(intent, key);
    if (!after.replayed() || !sameAnswer(original, after)) {
      return Verdict.fail(
          "after the race, a retry got " + after.summary() + " instead of the first answer");
    }
    return Verdict.pass();
  }

  /** Runs {@code n} copies of {@code attempt} on {@code n} threads released by one latch. */
  static <T> List<T> race(int n, Callable<T> attempt) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      CountDownLatch ready = new CountDownLatch(n);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        futures.add(
            pool.submit(
                () -> {
                  ready.countDown();
                  start.await();
                  return attempt.call();
                }));
      }
      ready.await(30, TimeUnit.SECONDS);
      start.countDown();
      List<T> results = new ArrayList<>();
      for (Future<T> future : futures) {
        results.add(future.get(10, TimeUnit.MINUTES));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  private static String statuses(List<Answer> answers) {
    return answers.stream()
        .map(a -> a.status() + (a.replayed() ? " replayed" : ""))
        .toList()
        .toString();
  }

  /** RFC 9110 section 10.2.3: delay-seconds or an HTTP-date. */
  static boolean retryAfter(String value) {
    String v = value.trim();
    return v.matches("[0-9]+") || httpDate(v).isPresent();
  }

  // ------------------------------------------------------------------ tenants and expiry

  private static Verdict tenantIndependent(Target t) throws IOException, InterruptedException {
    Tenant b = t.config().tenantB().orElse(null);
    if (b == null) {
      return Verdict.notCheckable("no second caller configured (tenant-b)");
    }
    Intent ofA = t.intent(t.config().tenantA());
    String key = Target.newKey();
    Answer firstA = firstAnswer(t, ofA, key);
    Intent ofB = t.intent(b, ofA.unique());
    Answer firstB = t.send(ofB, key);
    if (firstB.status() == 422) {
      return Verdict.fail(
          "tenant B's request under tenant A's key was answered 422: the key is not per caller: "
              + firstB.summary());
    }
    if (!firstB.success() || firstB.replayed()) {
      return Verdict.fail(
          "tenant B's request under tenant A's key was answered "
              + firstB.summary()
              + (firstB.replayed() ? " (a replay)" : "")
              + ", not a first answer of its own");
    }
    Optional<String> idA = firstA.member("id");
    if (idA.isPresent() && idA.equals(firstB.member("id"))) {
      return Verdict.fail("tenant B was given tenant A's resource " + idA.get());
    }
    Answer againA = t.send(ofA, key);
    if (!sameAnswer(firstA, againA)) {
      return Verdict.fail(
          "after tenant B used the key, tenant A's retry got "
              + againA.summary()
              + " instead of its first answer");
    }
    Answer againB = t.send(ofB, key);
    if (!sameAnswer(firstB, againB)) {
      return Verdict.fail(
          "tenant B's retry got " + againB.summary() + " instead of tenant B's first answer");
    }
    return Verdict.pass();
  }

  private static Verdict expiryAdvertised(Target t) throws IOException, InterruptedException {
    Intent intent = t.intent(t.config().tenantA());
    Answer first = firstAnswer(t, intent, Target.newKey());
    Optional<String> header = first.header("Idempotency-Key-Expires");
    if (header.isEmpty()) {
      return Verdict.fail("no Idempotency-Key-Expires on the first answer");
    }
    Optional<Instant> expires = httpDate(header.get().trim());
    if (expires.isEmpty()) {
      return Verdict.fail("Idempotency-Key-Expires is not an IMF-fixdate: " + header.get());
    }
    if (!expires.get().isAfter(Instant.now())) {
      return Verdict.fail("Idempotency-Key-Expires is not in the future: " + header.get());
    }
    return Verdict.pass();
  }

  static Optional<Instant> httpDate(String text) {
    try {
      return Optional.of(ZonedDateTime.parse(text, IMF_FIXDATE).toInstant());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  // ------------------------------------------------------------------ bad bodies

  /** Makes the bad body from the intent and its body as an object; null if it cannot. */
  @FunctionalInterface
  interface BadBody {
    byte[] make(Intent intent, JsonObject object);
  }

  private static Rule badBody(
      String id, String what, List<String> slugs, BadBody bad, String contentType) {
    return new Rule(
        id,
        what + ": a 4xx problem (no 5xx, no HTML), the key left unused",
        "contract.md §4, §5",
        t -> badBody(t, slugs, bad, contentType));
  }

  /**
   * Sends the bad body under a fresh key, then the intent's valid body under the same key: the
   * refusal must be a 4xx problem document, and it must not have bound the key (the valid body gets
   * a first answer, not a replay and not 422).
   */
  private static Verdict badBody(Target t, List<String> slugs, BadBody bad, String contentType)
      throws IOException, InterruptedException {
    Intent intent = t.intent(t.config().tenantA());
    JsonObject object = JsonSpelling.object(intent.body()).orElseThrow(() -> notAnObject());
    byte[] body = bad.make(intent, object);
    if (body == null) {
      return Verdict.notCheckable("the body template is too small to make this variant of it");
    }
    String key = Target.newKey();
    Answer refused = t.sendRaw(intent, key, body, contentType);
    if (refused.status() < 400 || refused.status() > 499) {
      return Verdict.fail(
          (refused.status() >= 500 ? "a server error: " : "not refused: ") + refused.summary());
    }
    Optional<String> notAProblem = Problems.notAProblem(refused);
    if (notAProblem.isPresent()) {
      return Verdict.fail(notAProblem.get());
    }
    if (t.config().expectProblemSlugs()) {
      Optional<String> wrongType = Problems.wrongType(refused, slugs.toArray(String[]::new));
      if (wrongType.isPresent()) {
        return Verdict.fail(wrongType.get());
      }
    }
    Answer valid = t.send(intent, key);
    if (!valid.success() || valid.replayed()) {
      return Verdict.fail(
          "the refusal ("
              + refused.status()
              + ") bound the key: the valid body under the same key then got "
              + valid.summary()
              + (valid.replayed() ? " (a replay)" : ""));
    }
    return Verdict.pass();
  }

  // ------------------------------------------------------------------ shared

  /**
   * The intent's first answer under {@code key}; a rule that needs one stops with a failure when it
   * is not a 2xx first answer.
   */
  static Answer firstAnswer(Target t, Intent intent, String key)
      throws IOException, InterruptedException {
    Answer first = t.send(intent, key);
    if (!first.success() || first.replayed()) {
      throw new Rule.Stop(
          Verdict.fail(
              "precondition: a new key's first request must succeed (2xx, not replayed), got "
                  + first.summary()
                  + (first.replayed() ? " (replayed)" : "")
                  + "; is the body template a valid request?"));
    }
    return first;
  }

  /** The same status and the same body bytes: a replay, or the answer the API gave first. */
  static boolean sameAnswer(Answer first, Answer other) {
    return first.status() == other.status() && Arrays.equals(first.body(), other.body());
  }

  /** Judges a refusal: its status, a problem document, and its type if slugs are expected. */
  static Verdict problem(Target t, Answer answer, int status, String slug) {
    if (answer.status() != status) {
      return Verdict.fail("expected " + status + ", got " + answer.summary());
    }
    Optional<String> notAProblem = Problems.notAProblem(answer);
    if (notAProblem.isPresent()) {
      return Verdict.fail(notAProblem.get());
    }
    if (t.config().expectProblemSlugs()) {
      Optional<String> wrongType = Problems.wrongType(answer, slug);
      if (wrongType.isPresent()) {
        return Verdict.fail(wrongType.get());
      }
    }
    return Verdict.pass();
  }

  private static Rule.Stop notAnObject() {
    return new Rule.Stop(
        Verdict.notCheckable("the body template is not a JSON object, so it cannot be varied"));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** A key for a report line: control characters shown as \\uXXXX, long keys cut. */
  static String printable(String key) {
    StringBuilder out = new StringBuilder("'");
    for (char c : key.toCharArray()) {
      out.append(c < 0x20 || c == 0x7F ? String.format("\\u%04X", (int) c) : String.valueOf(c));
    }
    String text = out.append("'").toString();
    return text.length() > 60 ? text.substring(0, 40) + "...' (" + key.length() + " chars)" : text;
  }
}
