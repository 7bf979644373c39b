package com.banhang.idempotency.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.MapConfig;
import com.banhang.idempotency.SideEffects;
import com.banhang.idempotency.SkewedDataSource;
import com.banhang.idempotency.persistence.JdbcIdempotencyStore;
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
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The gate's time decisions follow the database's clock (docs/idempotency.md, "Time"), on a node
 * whose clock is ten minutes off: the replay fast path's expiry and a remote operation's lease.
 * Rows are set from the database's clock; the gate sees the store through {@link SkewedDataSource}.
 */
class IdempotencyGateClockTest {

  private static final Duration SKEW = Duration.ofMinutes(10);
  private static final String KEY = "5d1c7a0e-3f7b-4b8e-9a51-0c2d6f1e8b47";
  private static final String BODY = "{\"a\":1}";

  private JdbcDataSource dataSource;

  @BeforeEach
  void database() {
    dataSource = new JdbcDataSource();
    dataSource.setURL("jdbc:h2:mem:gate-clock-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    Flyway.configure()
        .dataSource(dataSource)
        .locations("filesystem:" + System.getProperty("sql.dir", "../../sql") + "/h2")
        .load()
        .migrate();
  }

  @Test
  void completedKeyExpiredByTheDatabase_appClockBehind_isNotReplayed() throws Exception {
    completeOnTime(SideEffects.LOCAL);
    setFromDatabaseNow("expires_at", Duration.ofSeconds(-1));

    IdempotencyGate behind = gate(SKEW.negated());
    Response answer = send(behind, SideEffects.LOCAL);

    assertThat(answer).as("a retry after expiry is a new request").isNull();
    assertThat(behind.state.claim().attempt()).isEqualTo(2);
  }

  @Test
  void completedKeyUnexpiredByTheDatabase_appClockAhead_isReplayed() throws Exception {
    completeOnTime(SideEffects.LOCAL);
    setFromDatabaseNow("expires_at", Duration.ofMinutes(5));

    Response answer = send(gate(SKEW), SideEffects.LOCAL);

    assertThat(answer).isNotNull();
    assertThat(answer.getStatus()).isEqualTo(201);
    assertThat(answer.getHeaderString(IdempotencyGate.REPLAYED_HEADER)).isEqualTo("true");
  }

  @Test
  void remoteLeaseRunningByTheDatabase_appClockAhead_isInUseNotUnknown() throws Exception {
    assertThat(send(gate(Duration.ZERO), SideEffects.REMOTE)).isNull();
    setFromDatabaseNow("locked_until", Duration.ofMinutes(5));

    Response answer = send(gate(SKEW), SideEffects.REMOTE);

    assertThat(answer.getStatus()).isEqualTo(409);
    assertThat(new String((byte[]) answer.getEntity(), UTF_8))
        .contains("idempotency-key-in-use")
        .doesNotContain("outcome-unknown");
  }

  @Test
  void remoteLeaseRunOutByTheDatabase_appClockBehind_isUnknown() throws Exception {
    assertThat(send(gate(Duration.ZERO), SideEffects.REMOTE)).isNull();
    setFromDatabaseNow("locked_until", Duration.ofSeconds(-1));

    Response answer = send(gate(SKEW.negated()), SideEffects.REMOTE);

    assertThat(answer.getStatus()).isEqualTo(409);
    assertThat(new String((byte[]) answer.getEntity(), UTF_8)).contains("outcome-unknown");
  }

  private void completeOnTime(SideEffects sideEffects) {
    IdempotencyGate onTime = gate(Duration.ZERO);
    assertThat(send(onTime, sideEffects)).isNull();
    assertThat(
            onTime.store.complete(
                onTime.state.claim(),
                new StoredResponse(
                    201, Map.of("Content-Type", "application/json"), "{}".getBytes(UTF_8))))
        .isTrue();
  }

  private void setFromDatabaseNow(String column, Duration offset) throws Exception {
    try (Connection c = dataSource.getConnection();
        PreparedStatement update =
            c.prepareStatement(
                "UPDATE idempotency_record SET "
                    + column
                    + " = CURRENT_TIMESTAMP + INTERVAL '"
                    + offset.toSeconds()
                    + "' SECOND")) {
      assertThat(update.executeUpdate()).isEqualTo(1);
    }
  }

  /** A gate on a node whose clock is {@code appAhead} ahead of the database's. */
  private IdempotencyGate gate(Duration appAhead) {
    IdempotencySettings settings = new IdempotencySettings();
    settings.config = new MapConfig(new HashMap<>());
    settings.lease = Duration.ofSeconds(30);
    settings.maxBodyBytes = 65_536;
    settings.maxJsonDepth = 32;
    settings.inProgressWait = Duration.ZERO;
    settings.retryAfterSeconds = 1;
    settings.storedHeaders = List.of("Location", "Content-Type");
    IdempotencyProblems problems = new IdempotencyProblems();
    problems.settings = settings;
    IdempotencyGate gate = new IdempotencyGate();
    gate.settings = settings;
    gate.problems = problems;
    DataSource seen = SkewedDataSource.of(dataSource, appAhead);
    gate.store = JdbcIdempotencyStore.forDataSource(seen);
    gate.state = new IdempotentRequestState();
    gate.events = noEvents();
    return gate;
  }

  @SuppressWarnings("unchecked")
  private static Event<com.banhang.idempotency.IdempotencyEvent> noEvents() {
    return (Event<com.banhang.idempotency.IdempotencyEvent>)
        Proxy.newProxyInstance(
            IdempotencyGateClockTest.class.getClassLoader(),
            new Class<?>[] {Event.class},
            (proxy, method, args) -> null);
  }

  /**
   * Sends the request with {@link #KEY} and {@link #BODY} through the filter's admission and the
   * claim interceptor's claim; the response either answered with, or null when the key was claimed.
   */
  private static Response send(IdempotencyGate gate, SideEffects sideEffects) {
    Response[] aborted = new Response[1];
    InputStream[] body = {new ByteArrayInputStream(BODY.getBytes(UTF_8))};
    MultivaluedHashMap<String, String> headers = new MultivaluedHashMap<>();
    headers.putSingle(IdempotencyGate.KEY_HEADER, KEY);
    SecurityContext security =
        (SecurityContext)
            Proxy.newProxyInstance(
                IdempotencyGateClockTest.class.getClassLoader(),
                new Class<?>[] {SecurityContext.class},
                (p, m, a) ->
                    m.getName().equals("getUserPrincipal") ? (Principal) () -> "carol" : null);
    UriInfo uri =
        (UriInfo)
            Proxy.newProxyInstance(
                IdempotencyGateClockTest.class.getClassLoader(),
                new Class<?>[] {UriInfo.class},
                (p, m, a) -> new MultivaluedHashMap<String, String>());
    ContainerRequestContext context =
        (ContainerRequestContext)
            Proxy.newProxyInstance(
                IdempotencyGateClockTest.class.getClassLoader(),
                new Class<?>[] {ContainerRequestContext.class},
                (p, m, a) ->
                    switch (m.getName()) {
                      case "getHeaders" -> headers;
                      case "getSecurityContext" -> security;
                      case "getUriInfo" -> uri;
                      case "getLength" -> -1;
                      case "getEntityStream" -> body[0];
                      case "setEntityStream" -> {
                        body[0] = (InputStream) a[0];
                        yield null;
                      }
                      case "abortWith" -> {
                        aborted[0] = (Response) a[0];
                        yield null;
                      }
                      default -> null;
                    });
    gate.state = new IdempotentRequestState();
    gate.beforeMethod(policy(sideEffects), context);
    if (aborted[0] != null) {
      return aborted[0];
    }
    // Admitted by the filter: the claim interceptor claims when the method is invoked.
    return gate.claimAdmitted();
  }

  private static Idempotent policy(SideEffects sideEffects) {
    return new Idempotent() {
      @Override
      public Class<? extends Annotation> annotationType() {
        return Idempotent.class;
      }

      @Override
      public String operation() {
        return "widgets.create";
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
        return sideEffects;
      }

      @Override
      public String outcomeUnknownProblem() {
        return "outcome-unknown";
      }
    };
  }
}
