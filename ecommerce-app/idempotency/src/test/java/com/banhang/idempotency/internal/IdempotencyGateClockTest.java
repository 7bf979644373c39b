package com.banhang.idempotency.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.idempotency.SideEffects;
import com.banhang.idempotency.SkewedDataSource;
import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.internal.GateFixtures.FakeRequest;
import com.banhang.idempotency.jdbc.JdbcIdempotencyStore;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
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
    dataSource = GateFixtures.migratedH2("gate-clock");
  }

  @Test
  void completedKeyExpiredByTheDatabase_appClockBehind_isNotReplayed() throws Exception {
    completeOnTime(SideEffects.LOCAL);
    setFromDatabaseNow("expires_at", Duration.ofSeconds(-1));

    IdempotencyGate behind = gate(SKEW.negated());
    Response answer = send(behind, SideEffects.LOCAL);

    assertThat(answer).as("a retry after expiry is a new request").isNull();
    assertThat(behind.lifecycle.claim().attempt()).isEqualTo(2);
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
                onTime.lifecycle.claim(),
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
    DataSource seen = SkewedDataSource.of(dataSource, appAhead);
    return GateFixtures.gate(
        GateFixtures.settings(new HashMap<>(), List.of("Location", "Content-Type")),
        JdbcIdempotencyStore.forDataSource(seen),
        GateFixtures.events(event -> {}));
  }

  /**
   * Sends the request with {@link #KEY} and {@link #BODY} through the filter's admission and the
   * claim interceptor's claim; the response either answered with, or null when the key was claimed.
   */
  private static Response send(IdempotencyGate gate, SideEffects sideEffects) {
    FakeRequest request = new FakeRequest("carol", KEY, BODY);
    GateFixtures.lifecycle(gate, new RequestLifecycle());
    gate.admit(GateFixtures.policy("widgets.create", sideEffects), request.context());
    if (request.aborted != null) {
      return request.aborted;
    }
    // Admitted by the filter: the claim interceptor claims when the method is invoked.
    return gate.claimOnItsOwn();
  }
}
