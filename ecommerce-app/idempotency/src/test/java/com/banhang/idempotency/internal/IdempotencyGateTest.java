package com.banhang.idempotency.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.MapConfig;
import com.banhang.idempotency.SideEffects;
import com.banhang.idempotency.persistence.JdbcIdempotencyStore;
import com.banhang.idempotency.persistence.ResponseBodyCipher;
import com.banhang.idempotency.persistence.StoredResponse;
import jakarta.enterprise.event.Event;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Proxy;
import java.security.Principal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The gate's refusals before a claim, on an in-memory H2 store: no caller (401), a body nested too
 * deep (400), too many new keys (429, replays not counted), and a stored body that cannot be
 * trusted (503). Each asserts that nothing was written where nothing may be.
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
    dataSource = new JdbcDataSource();
    dataSource.setURL("jdbc:h2:mem:gate-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    Flyway.configure()
        .dataSource(dataSource)
        .locations("filesystem:" + System.getProperty("sql.dir", "../../sql") + "/h2")
        .load()
        .migrate();
  }

  private IdempotencyGate gate(ResponseBodyCipher cipher) {
    IdempotencySettings settings = new IdempotencySettings();
    settings.config = new MapConfig(config);
    settings.lease = Duration.ofSeconds(30);
    settings.maxBodyBytes = 65_536;
    settings.maxJsonDepth =
        Integer.parseInt(config.getOrDefault("idempotency.max-json-depth", "32"));
    settings.inProgressWait = Duration.ZERO;
    settings.retryAfterSeconds = 1;
    settings.storedHeaders = List.of("Location", "Content-Type");
    IdempotencyProblems problems = new IdempotencyProblems();
    problems.settings = settings;
    IdempotencyGate gate = new IdempotencyGate();
    gate.settings = settings;
    gate.problems = problems;
    gate.store = JdbcIdempotencyStore.forDataSource(dataSource).encryptingBodiesWith(cipher);
    gate.state = new IdempotentRequestState();
    gate.events = recordingEvents();
    return gate;
  }

  @SuppressWarnings("unchecked")
  private Event<IdempotencyEvent> recordingEvents() {
    return (Event<IdempotencyEvent>)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {Event.class},
            (proxy, method, args) -> {
              if (method.getName().equals("fire")) {
                events.add((IdempotencyEvent) args[0]);
              }
              return null;
            });
  }

  /** A request's context: what the gate reads, and the response it aborts with. */
  private static final class Request {
    final MultivaluedHashMap<String, String> headers = new MultivaluedHashMap<>();
    final String user;
    InputStream body;
    Response aborted;

    Request(String user, String key, String body) {
      this.user = user;
      if (key != null) {
        headers.putSingle(IdempotencyGate.KEY_HEADER, key);
      }
      this.body = new ByteArrayInputStream(body.getBytes(UTF_8));
    }

    ContainerRequestContext context() {
      SecurityContext security =
          (SecurityContext)
              Proxy.newProxyInstance(
                  getClass().getClassLoader(),
                  new Class<?>[] {SecurityContext.class},
                  (p, m, a) ->
                      m.getName().equals("getUserPrincipal") && user != null
                          ? (Principal) () -> user
                          : null);
      UriInfo uri =
          (UriInfo)
              Proxy.newProxyInstance(
                  getClass().getClassLoader(),
                  new Class<?>[] {UriInfo.class},
                  (p, m, a) -> new MultivaluedHashMap<String, String>());
      return (ContainerRequestContext)
          Proxy.newProxyInstance(
              getClass().getClassLoader(),
              new Class<?>[] {ContainerRequestContext.class},
              (p, m, a) ->
                  switch (m.getName()) {
                    case "getHeaders" -> headers;
                    case "getSecurityContext" -> security;
                    case "getUriInfo" -> uri;
                    case "getLength" -> -1;
                    case "getEntityStream" -> body;
                    case "setEntityStream" -> {
                      body = (InputStream) a[0];
                      yield null;
                    }
                    case "abortWith" -> {
                      aborted = (Response) a[0];
                      yield null;
                    }
                    default -> null;
                  });
    }
  }

  private Request send(IdempotencyGate gate, String user, String key, String body) {
    Request request = new Request(user, key, body);
    gate.state = new IdempotentRequestState();
    gate.beforeMethod(POLICY, request.context());
    return request;
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
    Request request = send(gate(ResponseBodyCipher.NONE), null, "k1", "{\"a\":1}");

    assertThat(request.aborted.getStatus()).isEqualTo(401);
    assertThat(request.aborted.getMediaType().toString()).isEqualTo("application/problem+json");
    assertThat(problemType(request.aborted)).contains("authentication-required");
    assertThat(rows()).isZero();
    assertThat(events)
        .extracting(IdempotencyEvent::outcome)
        .containsExactly(IdempotencyEvent.Outcome.REJECTED);
  }

  @Test
  void aCaller_isTheTenant_andWinsTheClaim() throws Exception {
    Request request = send(gate(ResponseBodyCipher.NONE), "carol", "k1", "{\"a\":1}");

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
  void bodyDeeperThanTheLimit_400_nothingWritten() throws Exception {
    config.put("idempotency.max-json-depth", "3");
    IdempotencyGate gate = gate(ResponseBodyCipher.NONE);

    Request deep = send(gate, "carol", "k1", "{\"a\":[{\"b\":[1]}]}");
    Request fits = send(gate, "carol", "k2", "{\"a\":[{\"b\":1}]}");

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
          gate.state.claim(),
          new StoredResponse(
              201, Map.of("Content-Type", "application/json"), "{}".getBytes(UTF_8)));
    }

    Request third = send(gate, "carol", "k3", "{}");
    Request replay = send(gate, "carol", "k1", "{}");
    Request reused = send(gate, "carol", "k2", "{\"other\":1}");
    Request bob = send(gate, "bob", "k3", "{}");

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
        .extracting(IdempotencyEvent::outcome)
        .contains(IdempotencyEvent.Outcome.RATE_LIMITED);
  }

  @Test
  void plaintextStoredBody_underEncryption_503NotReplayed() throws Exception {
    IdempotencyGate plain = gate(ResponseBodyCipher.NONE);
    send(plain, "carol", "k1", "{}");
    plain.store.complete(
        plain.state.claim(),
        new StoredResponse(
            201, Map.of("Content-Type", "application/json"), "{\"id\":1}".getBytes(UTF_8)));

    Request retry = send(gate(ResponseBodyCipher.aesGcm(KEY)), "carol", "k1", "{}");

    assertThat(retry.aborted.getStatus()).isEqualTo(503);
    assertThat(problemType(retry.aborted)).contains("idempotency-store-unavailable");
    assertThat(events)
        .extracting(IdempotencyEvent::outcome)
        .doesNotContain(IdempotencyEvent.Outcome.REPLAYED);
  }

  private static final Idempotent POLICY =
      new Idempotent() {
        @Override
        public Class<? extends Annotation> annotationType() {
          return Idempotent.class;
        }

        @Override
        public String operation() {
          return OPERATION;
        }

        @Override
        public String ttl() {
          return "PT24H";
        }

        @Override
        public boolean keyRequired() {
          return true;
        }

        @Override
        public SideEffects sideEffects() {
          return SideEffects.LOCAL;
        }

        @Override
        public String outcomeUnknownProblem() {
          return "outcome-unknown";
        }
      };
}
