package com.banhang.idempotency.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.SideEffects;
import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.internal.GateFixtures.FakeRequest;
import com.banhang.idempotency.jdbc.JdbcIdempotencyStore;
import com.banhang.idempotency.jdbc.ResponseBodyCipher;
import jakarta.interceptor.InvocationContext;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The gate's refusals before a claim, on an in-memory H2 store: no caller (401), a body nested too
 * deep (400), too many new keys (429, replays not counted), and a stored body that cannot be
 * trusted (503). Each asserts that nothing was written where nothing may be. A request passes the
 * filter ({@link IdempotencyGate#beforeMethod}), then, as when JAX-RS has bound and validated its
 * parameters, the claim interceptor; a body that fails binding never reaches the interceptor.
 */
class IdempotencyGateTest {

  private static final String OPERATION = "widgets.create";
  private static final String KEY =
      Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes(UTF_8));

  private JdbcDataSource dataSource;
  private final Map<String, String> config = new HashMap<>();
  private final List<IdempotencyEvent> events = new ArrayList<>();

  @BeforeEach
  void database() {
    dataSource = GateFixtures.migratedH2("gate");
  }

  private IdempotencyGate gate(ResponseBodyCipher cipher) {
    return GateFixtures.gate(
        GateFixtures.settings(config, List.of("Location", "Content-Type")),
        JdbcIdempotencyStore.forDataSource(dataSource).encryptingBodiesWith(cipher),
        GateFixtures.events(events::add));
  }

  /** A request with a valid body: the filter, then (unless it answered) the claim interceptor. */
  private FakeRequest send(IdempotencyGate gate, String user, String key, String body) {
    FakeRequest request = admit(gate, user, key, body);
    if (request.aborted == null) {
      request.aborted = gate.claimOnItsOwn();
    }
    return request;
  }

  /**
   * The filter only: what happens to a body that JAX-RS then refuses (binding or Bean Validation),
   * since the method, and with it the claim interceptor, is never invoked.
   */
  private FakeRequest admit(IdempotencyGate gate, String user, String key, String body) {
    FakeRequest request = new FakeRequest(user, key, body);
    GateFixtures.lifecycle(gate, new RequestLifecycle());
    gate.admit(POLICY, request.context());
    return request;
  }

  /** The response filter over {@code status}; returns the headers it was sent with. */
  private static MultivaluedHashMap<String, Object> respond(
      IdempotencyGate gate, FakeRequest request, int status) {
    MultivaluedHashMap<String, Object> headers = new MultivaluedHashMap<>();
    if (request.aborted != null) {
      headers.putAll(request.aborted.getHeaders());
    }
    ContainerResponseContext response =
        (ContainerResponseContext)
            Proxy.newProxyInstance(
                IdempotencyGateTest.class.getClassLoader(),
                new Class<?>[] {ContainerResponseContext.class},
                (p, m, a) ->
                    switch (m.getName()) {
                      case "getHeaders" -> headers;
                      case "getStatus" -> status;
                      default -> null;
                    });
    gate.settle(request.context(), response);
    return headers;
  }

  private int rows() throws Exception {
    try (Connection c = dataSource.getConnection();
        ResultSet rs =
            c.createStatement().executeQuery("SELECT COUNT(*) FROM idempotency_record")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static String problemType(Response response) {
    return new String((byte[]) response.getEntity(), UTF_8);
  }

  @Test
  void noCaller_401Problem_nothingWritten() throws Exception {
    FakeRequest request = send(gate(ResponseBodyCipher.NONE), null, "k1", "{\"a\":1}");

    assertThat(request.aborted.getStatus()).isEqualTo(401);
    assertThat(request.aborted.getMediaType().toString()).isEqualTo("application/problem+json");
    assertThat(problemType(request.aborted)).contains("authentication-required");
    assertThat(rows()).isZero();
    assertThat(events)
        .extracting(IdempotencyEvent::kind)
        .containsExactly(IdempotencyEvent.Kind.REJECTED);
  }

  @Test
  void aCaller_isTheTenant_andWinsTheClaim() throws Exception {
    FakeRequest request = send(gate(ResponseBodyCipher.NONE), "carol", "k1", "{\"a\":1}");

    assertThat(request.aborted).isNull();
    assertThat(rows()).isEqualTo(1);
    try (Connection c = dataSource.getConnection();
        ResultSet rs =
            c.createStatement().executeQuery("SELECT tenant_id FROM idempotency_record")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo("carol");
    }
  }

  @Test
  void events_nameTheTenantAndKey_ofEachRetry_andNoneBeforeTheKeyIsRead() throws Exception {
    IdempotencyGate gate = gate(ResponseBodyCipher.NONE);
    send(gate, "carol", "k1", "{}");
    gate.store.complete(gate.lifecycle.claim(), created());

    send(gate, "carol", "k1", "{}");
    send(gate, "carol", "k1", "{\"other\":1}");
    send(gate, null, "k1", "{}");

    // A payment's timeline is written from these: each answer must say which key it was about.
    assertThat(events)
        .extracting(IdempotencyEvent::kind, IdempotencyEvent::tenant, IdempotencyEvent::key)
        .containsExactly(
            tuple(IdempotencyEvent.Kind.CLAIMED, "carol", "k1"),
            tuple(IdempotencyEvent.Kind.REPLAYED, "carol", "k1"),
            tuple(IdempotencyEvent.Kind.KEY_REUSED, "carol", "k1"),
            tuple(IdempotencyEvent.Kind.REJECTED, null, null));
  }

  @Test
  void aCallerNameThatCannotKeepKeysApart_403Problem_nothingWritten() throws Exception {
    IdempotencyGate gate = gate(ResponseBodyCipher.NONE);
    // "carol " would be "carol" on SQL Server, whose = ignores trailing blanks.
    for (String name : List.of("carol ", " carol", "car\tol", "c".repeat(101))) {
      FakeRequest request = send(gate, name, "k1", "{\"a\":1}");

      assertThat(request.aborted.getStatus()).as(name).isEqualTo(403);
      assertThat(problemType(request.aborted)).contains("caller-name-unusable");
    }
    assertThat(rows()).isZero();
    assertThat(send(gate, "c".repeat(100), "k1", "{\"a\":1}").aborted).isNull();
    assertThat(send(gate, "Nguy\u1ec5n", "k1", "{\"a\":1}").aborted).isNull();
    assertThat(rows()).isEqualTo(2);
  }

  @Test
  void bodyDeeperThanTheLimit_400_nothingWritten() throws Exception {
    config.put("idempotency.max-json-depth", "3");
    IdempotencyGate gate = gate(ResponseBodyCipher.NONE);

    FakeRequest deep = send(gate, "carol", "k1", "{\"a\":[{\"b\":[1]}]}");
    FakeRequest fits = send(gate, "carol", "k2", "{\"a\":[{\"b\":1}]}");

    assertThat(deep.aborted.getStatus()).isEqualTo(400);
    assertThat(problemType(deep.aborted)).contains("json-nesting-too-deep");
    assertThat(fits.aborted).isNull();
    assertThat(rows()).isEqualTo(1);
  }

  @Test
  void newKeysOverTheTenantLimit_429WithRetryAfter_replaysAndOtherTenantsNotCounted()
      throws Exception {
    config.put("idempotency.new-keys.tenant.carol", "2/PT1H");
    IdempotencyGate gate = gate(ResponseBodyCipher.NONE);
    for (String key : List.of("k1", "k2")) {
      assertThat(send(gate, "carol", key, "{}").aborted).isNull();
      gate.store.complete(
          gate.lifecycle.claim(),
          new StoredResponse(
              201, Map.of("Content-Type", "application/json"), "{}".getBytes(UTF_8)));
    }

    FakeRequest third = send(gate, "carol", "k3", "{}");
    FakeRequest replay = send(gate, "carol", "k1", "{}");
    FakeRequest reused = send(gate, "carol", "k2", "{\"other\":1}");
    FakeRequest bob = send(gate, "bob", "k3", "{}");

    assertThat(third.aborted.getStatus()).isEqualTo(429);
    assertThat(third.aborted.getHeaderString("Retry-After")).matches("[1-9][0-9]*");
    assertThat(Long.parseLong(third.aborted.getHeaderString("Retry-After")))
        .isLessThanOrEqualTo(1800);
    assertThat(problemType(third.aborted)).contains("too-many-new-keys");
    assertThat(replay.aborted.getStatus()).isEqualTo(201);
    assertThat(replay.aborted.getHeaderString(IdempotencyGate.REPLAYED_HEADER)).isEqualTo("true");
    assertThat(reused.aborted.getStatus()).isEqualTo(422);
    assertThat(bob.aborted).isNull();
    assertThat(rows()).isEqualTo(3);
    assertThat(events)
        .extracting(IdempotencyEvent::kind)
        .contains(IdempotencyEvent.Kind.RATE_LIMITED);
  }

  @Test
  void plaintextStoredBody_underEncryption_503NotReplayed() throws Exception {
    IdempotencyGate plain = gate(ResponseBodyCipher.NONE);
    send(plain, "carol", "k1", "{}");
    plain.store.complete(
        plain.lifecycle.claim(),
        new StoredResponse(
            201, Map.of("Content-Type", "application/json"), "{\"id\":1}".getBytes(UTF_8)));

    FakeRequest retry = send(gate(ResponseBodyCipher.aesGcm(KEY)), "carol", "k1", "{}");

    assertThat(retry.aborted.getStatus()).isEqualTo(503);
    assertThat(problemType(retry.aborted)).contains("idempotency-store-unavailable");
    assertThat(events)
        .extracting(IdempotencyEvent::kind)
        .doesNotContain(IdempotencyEvent.Kind.REPLAYED);
  }

  @Test
  void bodyRefusedByBindingOrValidation_isNeverClaimed_andTheFixedBodyRunsUnderTheSameKey()
      throws Exception {
    IdempotencyGate gate = gate(ResponseBodyCipher.NONE);

    // Valid JSON of the wrong shape: the filter admits it, then JAX-RS refuses it (400) before
    // the method, so the claim interceptor never runs.
    FakeRequest invalid = admit(gate, "carol", "k1", "{\"quantity\":\"two\"}");
    MultivaluedHashMap<String, Object> headers = respond(gate, invalid, 400);

    assertThat(invalid.aborted).isNull();
    assertThat(rows()).isZero();
    assertThat((String) headers.getFirst(IdempotencyGate.EXPIRES_HEADER)).matches(IMF_FIXDATE);

    FakeRequest fixed = send(gate, "carol", "k1", "{\"quantity\":2}");

    assertThat(fixed.aborted).isNull();
    assertThat(gate.lifecycle.claim()).isNotNull();
    assertThat(rows()).isEqualTo(1);
    assertThat(events)
        .extracting(IdempotencyEvent::kind)
        .containsExactly(IdempotencyEvent.Kind.CLAIMED);
  }

  @Test
  void claimInterceptor_claimsBeforeTheMethodRuns_andAnswersADuplicateWithoutRunningIt()
      throws Exception {
    IdempotencyGate gate = gate(ResponseBodyCipher.NONE);
    IdempotencyFilter.BeforeTransactionInterceptor interceptor =
        new IdempotencyFilter.BeforeTransactionInterceptor();
    interceptor.gate = gate;
    List<String> ran = new ArrayList<>();

    admit(gate, "carol", "k1", "{}");
    RequestLifecycle first = gate.lifecycle;
    Object firstAnswer =
        interceptor.claimBeforeTransaction(
            invocation(
                () -> {
                  // Committed on its own before the method: visible on another connection.
                  ran.add("first, claim " + (first.claim() != null) + ", rows " + rows());
                  return Response.status(201).build();
                }));

    admit(gate, "carol", "k1", "{}");
    Object duplicate =
        interceptor.claimBeforeTransaction(
            invocation(
                () -> {
                  ran.add("duplicate");
                  return Response.status(201).build();
                }));

    GateFixtures.lifecycle(gate, new RequestLifecycle());
    Object unkeyed =
        interceptor.claimBeforeTransaction(
            invocation(
                () -> {
                  ran.add("unkeyed");
                  return Response.ok().build();
                }));

    assertThat(((Response) firstAnswer).getStatus()).isEqualTo(201);
    assertThat(((Response) duplicate).getStatus()).isEqualTo(409);
    assertThat(problemType((Response) duplicate)).contains("idempotency-key-in-use");
    assertThat(((Response) unkeyed).getStatus()).isEqualTo(200);
    assertThat(ran).containsExactly("first, claim true, rows 1", "unkeyed");
    assertThat(rows()).isEqualTo(1);
  }

  @Test
  void bodyRefusedBeforeTheClaim_400And413_nameOperationAndExpiry_inBodyAndHeader()
      throws Exception {
    config.put("idempotency.max-json-depth", "3");
    config.put("idempotency.max-body-bytes", "64");
    IdempotencyGate gate = gate(ResponseBodyCipher.NONE);
    Instant before = Instant.now();

    Instant deep =
        assertStatesExpiry(gate, send(gate, "carol", "k1", "{\"a\":[{\"b\":[1]}]}"), 400);
    Instant large =
        assertStatesExpiry(
            gate, send(gate, "carol", "k2", "{\"a\":\"" + "x".repeat(80) + "\"}"), 413);

    // No row binds these keys: the expiry a claim made now would get (24 h).
    assertThat(deep).isBetween(before.plus(TTL), Instant.now().plus(TTL));
    assertThat(large).isBetween(before.plus(TTL), Instant.now().plus(TTL));
    assertThat(rows()).isZero();

    // A key that a completed row binds: that row's expiry, also for a body refused before reading
    // it.
    send(gate, "carol", "k3", "{}");
    gate.store.complete(gate.lifecycle.claim(), created());
    Instant stored = expireIn("k3", Duration.ofHours(1));
    assertThat(assertStatesExpiry(gate, send(gate, "carol", "k3", "{\"a\":[{\"b\":[1]}]}"), 400))
        .isEqualTo(stored);
  }

  @Test
  void reusedKey_422_statesTheStoredRowsExpiry() throws Exception {
    IdempotencyGate gate = gate(ResponseBodyCipher.NONE);
    send(gate, "carol", "k1", "{}");
    gate.store.complete(gate.lifecycle.claim(), created());
    Instant stored = expireIn("k1", Duration.ofHours(1));

    assertThat(assertStatesExpiry(gate, send(gate, "carol", "k1", "{\"other\":1}"), 422))
        .isEqualTo(stored);
  }

  @Test
  void tooManyNewKeys_429_statesTheExpiryAClaimMadeNowWouldGet() throws Exception {
    config.put("idempotency.new-keys.tenant.carol", "1/PT1H");
    IdempotencyGate gate = gate(ResponseBodyCipher.NONE);
    send(gate, "carol", "k1", "{}");
    Instant before = Instant.now();

    Instant expiresAt = assertStatesExpiry(gate, send(gate, "carol", "k2", "{}"), 429);

    assertThat(expiresAt).isBetween(before.plus(TTL), Instant.now().plus(TTL));
    assertThat(rows()).isEqualTo(1);
  }

  @Test
  void storeUnavailable_503_statesTheRowsExpiryWhenItWasRead_elseThatOfAClaimMadeNow()
      throws Exception {
    IdempotencyGate plain = gate(ResponseBodyCipher.NONE);
    send(plain, "carol", "k1", "{}");
    plain.store.complete(plain.lifecycle.claim(), created());
    Instant stored = expireIn("k1", Duration.ofHours(1));
    IdempotencyGate encrypted = gate(ResponseBodyCipher.aesGcm(KEY));

    assertThat(assertStatesExpiry(encrypted, send(encrypted, "carol", "k1", "{}"), 503))
        .isEqualTo(stored);

    try (Connection c = dataSource.getConnection()) {
      c.createStatement().execute("DROP TABLE idempotency_record");
    }
    Instant before = Instant.now();
    Instant unreadable = assertStatesExpiry(plain, send(plain, "carol", "k2", "{}"), 503);
    assertThat(unreadable).isBetween(before.plus(TTL), Instant.now().plus(TTL));
  }

  /**
   * Asserts the answer is a problem with {@code status} that names the operation and an expiry, and
   * that the response filter sends the same expiry as an IMF-fixdate header; returns the expiry.
   */
  private static Instant assertStatesExpiry(IdempotencyGate gate, FakeRequest request, int status) {
    assertThat(request.aborted).isNotNull();
    assertThat(request.aborted.getStatus()).isEqualTo(status);
    JsonObject problem =
        Json.createReader(new ByteArrayInputStream((byte[]) request.aborted.getEntity()))
            .readObject();
    assertThat(problem.getString("operation", null)).isEqualTo(OPERATION);
    Instant inBody = Instant.parse(problem.getString("idempotencyKeyExpiresAt", null));
    String header =
        (String) respond(gate, request, status).getFirst(IdempotencyGate.EXPIRES_HEADER);
    assertThat(header).matches(IMF_FIXDATE);
    assertThat(Instant.from(DateTimeFormatter.RFC_1123_DATE_TIME.parse(header)))
        .isEqualTo(inBody.truncatedTo(ChronoUnit.SECONDS));
    return inBody;
  }

  /**
   * Moves carol's row of {@code key} to expire {@code in} from now, so that its expiry cannot be
   * mistaken for that of a claim made now; returns it as the store reads it.
   */
  private Instant expireIn(String key, Duration in) throws Exception {
    try (Connection c = dataSource.getConnection();
        var update =
            c.prepareStatement(
                "UPDATE idempotency_record SET expires_at = ? WHERE tenant_id = 'carol'"
                    + " AND idempotency_key = ?")) {
      update.setObject(1, java.time.OffsetDateTime.now(java.time.ZoneOffset.UTC).plus(in));
      update.setString(2, key);
      assertThat(update.executeUpdate()).isEqualTo(1);
    }
    return JdbcIdempotencyStore.forDataSource(dataSource)
        .find("carol", OPERATION, key)
        .orElseThrow()
        .expiresAt();
  }

  private static StoredResponse created() {
    return new StoredResponse(
        201, Map.of("Content-Type", "application/json"), "{\"id\":1}".getBytes(UTF_8));
  }

  private static InvocationContext invocation(Callable<Object> method) {
    return (InvocationContext)
        Proxy.newProxyInstance(
            IdempotencyGateTest.class.getClassLoader(),
            new Class<?>[] {InvocationContext.class},
            (p, m, a) -> m.getName().equals("proceed") ? method.call() : null);
  }

  private static final Duration TTL = Duration.ofHours(24);
  private static final String IMF_FIXDATE =
      "[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT";

  private static final Idempotent POLICY = GateFixtures.policy(OPERATION, SideEffects.LOCAL);
}
