package com.banhang.idempotency.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.SharedConnection;
import com.banhang.idempotency.SideEffects;
import com.banhang.idempotency.internal.GateFixtures.FakeRequest;
import com.banhang.idempotency.jdbc.JdbcIdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStore;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The gate's path for a local operation whose key is claimed inside the operation's transaction
 * (idempotency.local-claim=in-transaction), on an in-memory H2 store. Each "transaction" is a
 * connection with auto-commit off that the store gets for every statement, as a JTA transaction's
 * connection is shared on a server.
 */
class IdempotencyGateInTransactionTest {

  private static final String OPERATION = "widgets.create";
  private static final Idempotent POLICY = GateFixtures.policy(OPERATION, SideEffects.LOCAL);

  private JdbcDataSource dataSource;
  private final Map<String, String> config = new HashMap<>();
  private final List<IdempotencyEvent> events = new ArrayList<>();
  private final List<Connection> open = new ArrayList<>();

  @BeforeEach
  void database() {
    dataSource = GateFixtures.migratedH2("gate-in-transaction");
  }

  @AfterEach
  void closeConnections() throws SQLException {
    for (Connection connection : open) {
      connection.close();
    }
  }

  /** A gate whose store works inside {@code transaction}. */
  private IdempotencyGate gate(Connection transaction) {
    IdempotencySettings settings =
        GateFixtures.settings(config, List.of("Location", "Content-Type"));
    settings.localClaim = "in-transaction";
    settings.localClaimLockWait = Duration.ofSeconds(10);
    IdempotencyStore store = JdbcIdempotencyStore.forDataSource(SharedConnection.of(transaction));
    return GateFixtures.gate(settings, store, GateFixtures.events(events::add));
  }

  private Connection transaction() throws SQLException {
    Connection connection = dataSource.getConnection();
    connection.setAutoCommit(false);
    open.add(connection);
    return connection;
  }

  /** The filter, then the claim as the interceptor makes it inside the transaction. */
  private static Response admitAndClaim(IdempotencyGate gate, String key, String body) {
    GateFixtures.lifecycle(gate, new RequestLifecycle());
    FakeRequest request = new FakeRequest("carol", key, body);
    gate.admit(POLICY, request.context());
    assertThat(request.aborted).as("nothing is answered before the claim").isNull();
    assertThat(gate.claimsInTransaction(POLICY)).isTrue();
    return gate.claimInTransaction();
  }

  private static Response created(String id) {
    return Response.status(201)
        .header("Location", "/widgets/" + id)
        .type("application/json")
        .entity(("{\"id\":\"" + id + "\"}").getBytes(UTF_8))
        .build();
  }

  private IdempotencyRecord row(String key) {
    return JdbcIdempotencyStore.forDataSource(dataSource)
        .find("carol", OPERATION, key)
        .orElse(null);
  }

  @Test
  void newKey_wonInTheTransaction_writtenOnceCompleted_visibleOnlyAfterCommit() throws Exception {
    Connection tx = transaction();
    IdempotencyGate gate = gate(tx);

    assertThat(admitAndClaim(gate, "k1", "{\"a\":1}")).isNull();
    assertThat(gate.lifecycle.claimedInTransaction()).isNotNull();
    assertThat(row("k1")).as("not visible before the commit").isNull();
    gate.executeInTransaction(GateFixtures.returning(created("w1")));
    tx.commit();

    IdempotencyRecord stored = row("k1");
    assertThat(stored.status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
    assertThat(stored.response().status()).isEqualTo(201);
    assertThat(stored.response().headers()).containsEntry("Location", "/widgets/w1");
    assertThat(events)
        .extracting(IdempotencyEvent::kind)
        .containsExactly(IdempotencyEvent.Kind.CLAIMED, IdempotencyEvent.Kind.COMPLETED);
  }

  @Test
  void retryOfACompletedKey_replayedFromTheClaim_andAnotherBodyIs422() throws Exception {
    Connection first = transaction();
    IdempotencyGate gate = gate(first);
    admitAndClaim(gate, "k1", "{\"a\":1}");
    gate.executeInTransaction(GateFixtures.returning(created("w1")));
    first.commit();

    IdempotencyGate retry = gate(transaction());
    Response replay = admitAndClaim(retry, "k1", "{ \"a\" : 1.0 }");
    Response reused = admitAndClaim(gate(transaction()), "k1", "{\"a\":2}");

    assertThat(replay.getStatus()).isEqualTo(201);
    assertThat(replay.getHeaderString(IdempotencyGate.REPLAYED_HEADER)).isEqualTo("true");
    assertThat(new String((byte[]) replay.getEntity(), UTF_8)).isEqualTo("{\"id\":\"w1\"}");
    assertThat(reused.getStatus()).isEqualTo(422);
    assertThat(retry.lifecycle.claimedInTransaction()).isNull();
  }

  @Test
  void readFirst_aRetryIsAnsweredInTheFilter_aNewKeyIsStillClaimedInTheTransaction()
      throws Exception {
    Connection first = transaction();
    IdempotencyGate gate = gate(first);
    admitAndClaim(gate, "k1", "{\"a\":1}");
    gate.executeInTransaction(GateFixtures.returning(created("w1")));
    first.commit();

    IdempotencyGate readFirst = gate(transaction());
    readFirst.settings.localClaimReadFirst = true;
    GateFixtures.lifecycle(readFirst, new RequestLifecycle());
    FakeRequest retry = new FakeRequest("carol", "k1", "{\"a\":1}");
    readFirst.admit(POLICY, retry.context());
    GateFixtures.lifecycle(readFirst, new RequestLifecycle());
    FakeRequest fresh = new FakeRequest("carol", "k2", "{\"a\":1}");
    readFirst.admit(POLICY, fresh.context());

    assertThat(retry.aborted.getStatus()).as("answered before binding").isEqualTo(201);
    assertThat(retry.aborted.getHeaderString(IdempotencyGate.REPLAYED_HEADER)).isEqualTo("true");
    assertThat(fresh.aborted).isNull();
    assertThat(readFirst.claimInTransaction()).isNull();
    assertThat(readFirst.lifecycle.claimedInTransaction()).isNotNull();
  }

  @Test
  void aDuplicateWhileTheOwnerRuns_waits_thenGetsTheReplayNot409() throws Exception {
    Connection ownerTx = transaction();
    IdempotencyGate owner = gate(ownerTx);
    assertThat(admitAndClaim(owner, "k1", "{\"a\":1}")).isNull();

    ExecutorService duplicateThread = Executors.newSingleThreadExecutor();
    try {
      Connection duplicateTx = transaction();
      Future<Response> duplicate =
          duplicateThread.submit(() -> admitAndClaim(gate(duplicateTx), "k1", "{\"a\":1}"));
      Thread.sleep(300);
      assertThat(duplicate).as("the duplicate waits for the owner").isNotDone();
      owner.executeInTransaction(GateFixtures.returning(created("w1")));
      ownerTx.commit();

      Response answer = duplicate.get(10, TimeUnit.SECONDS);
      assertThat(answer.getStatus()).isEqualTo(201);
      assertThat(answer.getHeaderString(IdempotencyGate.REPLAYED_HEADER)).isEqualTo("true");
    } finally {
      duplicateThread.shutdownNow();
    }
  }

  @Test
  void ownerHoldsTheKeyLongerThanTheWait_409InUse_thrownSoTheTransactionRollsBack()
      throws Exception {
    Connection ownerTx = transaction();
    admitAndClaim(gate(ownerTx), "k1", "{\"a\":1}");
    Connection duplicateTx = transaction();
    // H2 bounds the wait by the session's LOCK_TIMEOUT.
    duplicateTx.createStatement().execute("SET LOCK_TIMEOUT 200");

    assertThatThrownBy(() -> admitAndClaim(gate(duplicateTx), "k1", "{\"a\":1}"))
        .isInstanceOfSatisfying(
            AnswerWithRollbackException.class,
            e -> {
              assertThat(e.answer().getStatus()).isEqualTo(409);
              assertThat(new String((byte[]) e.answer().getEntity(), UTF_8))
                  .contains("idempotency-key-in-use");
            });
  }

  @Test
  void newKeyOverTheLimit_429_thrownSoItsRowRollsBack_whileARetryIsStillReplayed()
      throws Exception {
    config.put("idempotency.new-keys.tenant.carol", "1/PT1H");
    Connection first = transaction();
    IdempotencyGate gate = gate(first);
    admitAndClaim(gate, "k1", "{}");
    gate.executeInTransaction(GateFixtures.returning(created("w1")));
    first.commit();
    gate.settings.newKeyLimits(); // one limiter for every gate below
    IdempotencySettings shared = gate.settings;

    Connection secondTx = transaction();
    IdempotencyGate second = gate(secondTx);
    second.settings = shared;
    assertThatThrownBy(() -> admitAndClaim(second, "k2", "{}"))
        .isInstanceOfSatisfying(
            AnswerWithRollbackException.class,
            e -> assertThat(e.answer().getStatus()).isEqualTo(429));
    secondTx.rollback();
    IdempotencyGate retry = gate(transaction());
    retry.settings = shared;

    assertThat(row("k2")).isNull();
    assertThat(admitAndClaim(retry, "k1", "{}").getStatus()).isEqualTo(201);
  }

  @Test
  void rejectionThrownAfterTheClaim_rolledBackWithTheTransaction_isStillStoredForRetries()
      throws Exception {
    Connection tx = transaction();
    IdempotencyGate gate = gate(tx);
    admitAndClaim(gate, "k1", "{\"a\":1}");
    gate.lifecycle.executing();
    // The method threw a business rejection: its transaction, and the claim in it, roll back.
    tx.rollback();
    assertThat(row("k1")).isNull();
    // After the transaction, the response filter's statements commit on their own.
    GateFixtures.store(gate, JdbcIdempotencyStore.forDataSource(dataSource));

    respond(gate, 409);

    IdempotencyRecord stored = row("k1");
    assertThat(stored.status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
    assertThat(stored.response().status()).isEqualTo(409);
  }

  @Test
  void failureAfterTheClaim_rolledBack_leavesTheKeyFreeForTheRetry() throws Exception {
    Connection tx = transaction();
    IdempotencyGate gate = gate(tx);
    admitAndClaim(gate, "k1", "{\"a\":1}");
    gate.lifecycle.executing();
    tx.rollback();
    GateFixtures.store(gate, JdbcIdempotencyStore.forDataSource(dataSource));

    respond(gate, 500);

    assertThat(row("k1")).isNull();
    assertThat(admitAndClaim(gate(transaction()), "k1", "{\"a\":1}")).isNull();
  }

  /** The response filter over a response of {@code status} with a problem body. */
  private static void respond(IdempotencyGate gate, int status) {
    MultivaluedHashMap<String, Object> headers = new MultivaluedHashMap<>();
    Object[] entity = {"{\"type\":\"rejected\"}".getBytes(UTF_8)};
    ContainerResponseContext response =
        (ContainerResponseContext)
            Proxy.newProxyInstance(
                IdempotencyGateInTransactionTest.class.getClassLoader(),
                new Class<?>[] {ContainerResponseContext.class},
                (p, m, a) ->
                    switch (m.getName()) {
                      case "getHeaders" -> headers;
                      case "getStatus" -> status;
                      case "getEntity" -> entity[0];
                      case "setEntity" -> {
                        entity[0] = a[0];
                        yield null;
                      }
                      default -> null;
                    });
    gate.settle(new FakeRequest("carol", "k1", "{}").context(), response);
  }
}
