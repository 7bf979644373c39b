package com.banhang.idempotency.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.banhang.idempotency.ClaimLostException;
import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.idempotency.IdempotencyEvent.Kind;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.OutcomeUnknownException;
import com.banhang.idempotency.SideEffects;
import com.banhang.idempotency.internal.GateFixtures.FakeRequest;
import com.banhang.idempotency.internal.RequestLifecycle.Phase;
import com.banhang.idempotency.spi.InMemoryIdempotencyStore;
import jakarta.interceptor.InvocationContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every transition of {@link RequestLifecycle.Phase}, driven through the gate as the filter, the
 * two interceptors and the response filter drive it, over the in-memory store and a fake JTA
 * transaction: no server, no database, milliseconds per test.
 */
class RequestLifecycleTest {

  private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore();
  private final FakeTransactions transactions = new FakeTransactions(store);
  private final Map<String, String> config = new HashMap<>();
  private final List<IdempotencyEvent> events = new ArrayList<>();
  private IdempotencySettings settings;
  private IdempotencyGate gate;

  @BeforeEach
  void gateInMemory() {
    config.put("idempotency.local-claim", "in-transaction");
    settings = GateFixtures.settings(config, List.of("Location"));
    settings.localClaim = "in-transaction";
    settings.localClaimReadFirst = true;
    settings.localClaimLockWait = Duration.ofSeconds(1);
    gate = GateFixtures.gate(settings, store, GateFixtures.events(events::add));
  }

  // ---------------------------------------------------------------- the table itself

  @Test
  void finalPhases_goNowhere() {
    for (Phase end :
        EnumSet.of(
            Phase.ANSWERED,
            Phase.COMPLETED,
            Phase.OUTCOME_UNKNOWN,
            Phase.CLAIM_LOST,
            Phase.RELEASED)) {
      for (Phase next : Phase.values()) {
        assertThat(end.mayMoveTo(next)).as("%s -> %s", end, next).isFalse();
      }
    }
  }

  @Test
  void aMoveOutOfOrder_throws_andLeavesThePhase() {
    RequestLifecycle lifecycle = new RequestLifecycle();

    assertThatThrownBy(lifecycle::executing)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("UNGUARDED to EXECUTING");
    assertThat(lifecycle.phase()).isEqualTo(Phase.UNGUARDED);
  }

  // ---------------------------------------------------------------- UNGUARDED

  @Test
  void unguarded_noKeyWhereItIsOptional_runsTheMethodAndWritesNothing() throws Exception {
    FakeRequest request = new FakeRequest("carol", null, "{}");
    gate.admit(policy(SideEffects.LOCAL, false), request.context());
    Object result = invokeInTransaction(() -> created("w1"), true);

    assertThat(request.aborted).isNull();
    assertThat(((Response) result).getStatus()).isEqualTo(201);
    assertThat(gate.lifecycle.phase()).isEqualTo(Phase.UNGUARDED);
    assertThat(store.size()).isZero();
  }

  @Test
  void unguarded_toAnswered_refusalsBeforeAnyRead() {
    Idempotent local = policy(SideEffects.LOCAL, true);
    assertThat(admit(local, "alice", null, "{}").getStatus()).isEqualTo(400);
    assertThat(admit(local, "alice", "", "{}").getStatus()).isEqualTo(400);
    assertThat(admit(local, "alice", "k", "{").getStatus()).isEqualTo(400);
    assertThat(admit(local, null, "k", "{}").getStatus()).isEqualTo(401);
    assertThat(events).extracting(IdempotencyEvent::kind).containsOnly(Kind.REJECTED);
    assertThat(store.size()).isZero();
  }

  @Test
  void unguarded_toAnswered_aCompletedKeyIsReplayedOrRefused422FromOneRead() throws Exception {
    Idempotent local = policy(SideEffects.LOCAL, true);
    runLocal("k1", "{\"a\":1}", () -> created("w1"));

    Response replay = admit(local, "alice", "k1", "{ \"a\" : 1 }");
    Response reused = admit(local, "alice", "k1", "{\"a\":2}");

    assertThat(replay.getStatus()).isEqualTo(201);
    assertThat(replay.getHeaderString(IdempotencyGate.REPLAYED_HEADER)).isEqualTo("true");
    assertThat(reused.getStatus()).isEqualTo(422);
    assertThat(problemType(reused)).endsWith("idempotency-key-reused");
  }

  @Test
  void unguarded_toAnswered_storeDownAtTheRead_503() {
    store.unavailable(true);

    Response answer = admit(policy(SideEffects.LOCAL, true), "alice", "k1", "{}");

    assertThat(answer.getStatus()).isEqualTo(503);
    assertThat(answer.getHeaderString("Retry-After")).isNotNull();
    assertThat(gate.lifecycle.phase()).isEqualTo(Phase.ANSWERED);
  }

  // ---------------------------------------------------------------- ADMITTED

  @Test
  void admitted_toAnswered_aRunningRemoteKeyIs409() throws Exception {
    Idempotent remote = policy(SideEffects.REMOTE, true);
    assertThat(admit(remote, "alice", "k1", "{}")).isNull();
    assertThat(claimBeforeTransaction()).isNull();
    assertThat(gate.lifecycle.phase()).isEqualTo(Phase.CLAIMED);

    GateFixtures.lifecycle(gate, new RequestLifecycle());
    assertThat(admit(remote, "alice", "k1", "{}")).isNull();
    Response duplicate = (Response) claimBeforeTransaction();

    assertThat(duplicate.getStatus()).isEqualTo(409);
    assertThat(problemType(duplicate)).endsWith("idempotency-key-in-use");
    assertThat(gate.lifecycle.phase()).isEqualTo(Phase.ANSWERED);
  }

  @Test
  void admitted_toAnswered_newKeysOverTheLimit_429() throws Exception {
    config.put("idempotency.new-keys.tenant.alice", "1/PT1H");
    settings.config = new com.banhang.idempotency.MapConfig(config);
    runLocal("k1", "{}", () -> created("w1"));

    GateFixtures.lifecycle(gate, new RequestLifecycle());
    admit(policy(SideEffects.LOCAL, true), "alice", "k2", "{}");
    transactions.begin();
    Callable<Object> method = () -> created("w2");
    assertThatThrownBy(() -> gate.executeInTransaction(invocation(method)))
        .isInstanceOfSatisfying(
            AnswerWithRollbackException.class,
            e -> assertThat(e.answer().getStatus()).isEqualTo(429));
    transactions.rollback();

    assertThat(gate.lifecycle.phase()).isEqualTo(Phase.ANSWERED);
    assertThat(store.find("alice", "widgets.create", "k2")).isEmpty();
  }

  // ------------------------------------------- CLAIMED, EXECUTING, COMPLETED_UNCOMMITTED,
  // COMPLETED

  @Test
  void local_claimedInTheTransaction_completedWithIt_thenReplayed() throws Exception {
    Response first = runLocal("k1", "{\"a\":1}", () -> created("w1"));

    assertThat(first.getStatus()).isEqualTo(201);
    assertThat(gate.lifecycle.phase()).isEqualTo(Phase.COMPLETED);
    IdempotencyRecord row = store.find("alice", "widgets.create", "k1").orElseThrow();
    assertThat(row.status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
    assertThat(row.response().headers()).containsEntry("Location", "/widgets/w1");
    assertThat(events)
        .extracting(IdempotencyEvent::kind, IdempotencyEvent::tenant, IdempotencyEvent::key)
        .containsExactly(tuple(Kind.CLAIMED, "alice", "k1"), tuple(Kind.COMPLETED, "alice", "k1"));
  }

  @Test
  void remote_claimedFirst_completesItselfInItsRecordingTransaction() throws Exception {
    admit(policy(SideEffects.REMOTE, true), "alice", "p1", "{}");
    assertThat(claimBeforeTransaction()).isNull();
    com.banhang.idempotency.IdempotentRequest request = currentRequest();
    assertThat(request.claim()).isPresent();

    Object answer =
        gate.executeInTransaction(
            invocation(
                () -> {
                  transactions.begin();
                  Response stored = request.complete(created("pay-1"));
                  transactions.commit();
                  return stored;
                }));

    assertThat(((Response) answer).getStatus()).isEqualTo(201);
    assertThat(gate.lifecycle.phase()).isEqualTo(Phase.COMPLETED);
    assertThat(request.claim()).isEmpty();
    assertThat(store.find("alice", "widgets.create", "p1").orElseThrow().completed()).isTrue();
  }

  // ---------------------------------------------------------------- ROLLED_BACK

  @Test
  void completedUncommitted_toRolledBack_answered500_andTheKeyIsFreeAgain() throws Exception {
    admit(policy(SideEffects.LOCAL, true), "alice", "k1", "{}");
    transactions.begin();
    gate.executeInTransaction(invocation(() -> created("w1")));
    assertThat(gate.lifecycle.phase()).isEqualTo(Phase.COMPLETED_UNCOMMITTED);
    transactions.rollback(); // a failed commit

    ResponseContext response = new ResponseContext(201);
    gate.settle(new FakeRequest("alice", "k1", "{}").context(), response.context());

    assertThat(response.status).isEqualTo(500);
    assertThat(new String((byte[]) response.entity, UTF_8)).contains("operation-rolled-back");
    assertThat(gate.lifecycle.phase()).isEqualTo(Phase.RELEASED);
    assertThat(store.find("alice", "widgets.create", "k1")).isEmpty();
  }

  @Test
  void rolledBack_toOutcomeUnknown_whenARemoteRecordingFailsAfterTheCall() throws Exception {
    admit(policy(SideEffects.REMOTE, true), "alice", "p1", "{}");
    claimBeforeTransaction();
    com.banhang.idempotency.IdempotentRequest request = currentRequest();

    assertThatThrownBy(
            () ->
                gate.executeInTransaction(
                    invocation(
                        () -> {
                          transactions.begin();
                          request.complete(created("pay-1"));
                          transactions.rollback();
                          throw new OutcomeUnknownException(
                              "payment-outcome-unknown", "answered but not recorded", null);
                        })))
        .isInstanceOf(OutcomeUnknownException.class);
    ResponseContext response = new ResponseContext(504);
    gate.settle(new FakeRequest("alice", "p1", "{}").context(), response.context());

    assertThat(gate.lifecycle.phase()).isEqualTo(Phase.OUTCOME_UNKNOWN);
    IdempotencyRecord row = store.find("alice", "widgets.create", "p1").orElseThrow();
    assertThat(row.status()).isEqualTo(IdempotencyRecord.Status.PROCESSING);
    assertThat(row.outcomeUnknown()).isTrue();
    assertThat(new String(row.response().body(), UTF_8)).contains("payment-outcome-unknown");
  }

  @Test
  void rolledBack_toCompleted_aRejectionReturnedInARolledBackTransactionIsStillFinal()
      throws Exception {
    admit(policy(SideEffects.LOCAL, true), "alice", "k1", "{}");
    transactions.begin();
    gate.executeInTransaction(
        invocation(() -> Response.status(409).entity("{}".getBytes(UTF_8)).build()));
    transactions.rollback(); // the claim inside the transaction went with it

    gate.settle(new FakeRequest("alice", "k1", "{}").context(), new ResponseContext(409).context());

    assertThat(gate.lifecycle.phase()).isEqualTo(Phase.COMPLETED);
    IdempotencyRecord row = store.find("alice", "widgets.create", "k1").orElseThrow();
    assertThat(row.status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
    assertThat(row.response().status()).isEqualTo(409);
  }

  @Test
  void rolledBack_toClaimLost_whenAnotherAttemptTookTheKeyMeanwhile() throws Exception {
    Idempotent local = policy(SideEffects.LOCAL, true);
    settings.localClaim = "before-transaction";
    admit(local, "alice", "k1", "{}");
    claimBeforeTransaction();
    transactions.begin();
    gate.executeInTransaction(invocation(() -> created("w1")));
    transactions.rollback();
    RequestLifecycle first = gate.lifecycle;
    store.advance(Duration.ofMinutes(1));
    GateFixtures.lifecycle(gate, new RequestLifecycle());
    admit(local, "alice", "k1", "{}");
    assertThat(claimBeforeTransaction()).as("a retry takes the expired lease over").isNull();

    GateFixtures.lifecycle(gate, first);
    gate.settle(new FakeRequest("alice", "k1", "{}").context(), new ResponseContext(201).context());

    assertThat(first.phase()).isEqualTo(Phase.CLAIM_LOST);
    assertThat(store.find("alice", "widgets.create", "k1").orElseThrow().attempt()).isEqualTo(2);
  }

  @Test
  void claimed_toClaimLost_whenReconciliationSettledTheKeyFirst() throws Exception {
    admit(policy(SideEffects.REMOTE, true), "alice", "p1", "{}");
    claimBeforeTransaction();
    store.release(gate.lifecycle.claim()); // reconciliation released it while this request stalled

    gate.settle(new FakeRequest("alice", "p1", "{}").context(), new ResponseContext(500).context());

    assertThat(gate.lifecycle.phase()).isEqualTo(Phase.CLAIM_LOST);
    assertThat(events).extracting(IdempotencyEvent::kind).doesNotContain(Kind.RELEASED);
  }

  // ---------------------------------------------------------------- EXECUTING and its ends

  @Test
  void executing_toOutcomeUnknown_retriesGetTheOperations409() throws Exception {
    Idempotent remote = policy(SideEffects.REMOTE, true);
    admit(remote, "alice", "p1", "{}");
    claimBeforeTransaction();
    assertThatThrownBy(
            () ->
                gate.executeInTransaction(
                    invocation(
                        () -> {
                          throw new OutcomeUnknownException(
                              "payment-outcome-unknown", "the gateway timed out", null);
                        })))
        .isInstanceOf(OutcomeUnknownException.class);
    gate.settle(new FakeRequest("alice", "p1", "{}").context(), new ResponseContext(504).context());

    GateFixtures.lifecycle(gate, new RequestLifecycle());
    admit(remote, "alice", "p1", "{}");
    Response retry = (Response) claimBeforeTransaction();

    assertThat(retry.getStatus()).isEqualTo(409);
    assertThat(problemType(retry)).endsWith("payment-outcome-unknown");
    assertThat(retry.getHeaderString("Retry-After")).isNotNull();
    assertThat(events)
        .extracting(IdempotencyEvent::kind, IdempotencyEvent::tenant, IdempotencyEvent::key)
        .containsExactly(
            tuple(Kind.CLAIMED, "alice", "p1"),
            tuple(Kind.MARKED_UNKNOWN, "alice", "p1"),
            tuple(Kind.OUTCOME_UNKNOWN, "alice", "p1"));
  }

  @Test
  void executing_toClaimLost_whenATakeoverFencedTheCompletionOut() throws Exception {
    Idempotent local = policy(SideEffects.LOCAL, true);
    settings.localClaim = "before-transaction";
    admit(local, "alice", "k1", "{}");
    assertThat(claimBeforeTransaction()).isNull();
    RequestLifecycle slow = gate.lifecycle;

    store.advance(Duration.ofMinutes(1)); // the slow worker's 30 s lease runs out
    GateFixtures.lifecycle(gate, new RequestLifecycle());
    admit(local, "alice", "k1", "{}");
    assertThat(claimBeforeTransaction()).as("the retry takes the key over").isNull();
    assertThat(gate.lifecycle.claim().attempt()).isEqualTo(2);

    GateFixtures.lifecycle(gate, slow);
    assertThatThrownBy(() -> gate.executeInTransaction(invocation(() -> created("w1"))))
        .isInstanceOf(ClaimLostException.class);
    assertThat(slow.phase()).isEqualTo(Phase.CLAIM_LOST);
  }

  @Test
  void executing_toReleased_aFailureWithoutEffect_freesTheKeyForAnotherAttempt() throws Exception {
    Idempotent local = policy(SideEffects.LOCAL, true);
    settings.localClaim = "before-transaction";
    admit(local, "alice", "k1", "{}");
    claimBeforeTransaction();
    assertThatThrownBy(
            () ->
                gate.executeInTransaction(
                    invocation(
                        () -> {
                          throw new IllegalStateException("database failed");
                        })))
        .isInstanceOf(IllegalStateException.class);
    gate.settle(new FakeRequest("alice", "k1", "{}").context(), new ResponseContext(500).context());

    assertThat(gate.lifecycle.phase()).isEqualTo(Phase.RELEASED);
    GateFixtures.lifecycle(gate, new RequestLifecycle());
    admit(local, "alice", "k1", "{}");
    assertThat(claimBeforeTransaction()).isNull();
    assertThat(gate.lifecycle.claim().attempt()).isEqualTo(2);
    assertThat(events)
        .extracting(IdempotencyEvent::kind, IdempotencyEvent::tenant, IdempotencyEvent::key)
        .containsExactly(
            tuple(Kind.CLAIMED, "alice", "k1"),
            tuple(Kind.RELEASED, "alice", "k1"),
            tuple(Kind.CLAIMED, "alice", "k1"));
  }

  @Test
  void executing_toCompleted_aBusinessRejectionIsStoredAndReplayed() throws Exception {
    Idempotent local = policy(SideEffects.LOCAL, true);
    settings.localClaim = "before-transaction";
    admit(local, "alice", "k1", "{}");
    claimBeforeTransaction();
    assertThatThrownBy(
            () ->
                gate.executeInTransaction(
                    invocation(
                        () -> {
                          throw new IllegalArgumentException("out of stock");
                        })))
        .isInstanceOf(IllegalArgumentException.class);
    gate.settle(new FakeRequest("alice", "k1", "{}").context(), new ResponseContext(409).context());

    assertThat(gate.lifecycle.phase()).isEqualTo(Phase.COMPLETED);
    GateFixtures.lifecycle(gate, new RequestLifecycle());
    Response replay = admit(local, "alice", "k1", "{}");
    assertThat(replay.getStatus()).isEqualTo(409);
    assertThat(replay.getHeaderString(IdempotencyGate.REPLAYED_HEADER)).isEqualTo("true");
  }

  @Test
  void claimed_toReleased_whenTheMethodNeverStarted() throws Exception {
    admit(policy(SideEffects.REMOTE, true), "alice", "p1", "{}");
    claimBeforeTransaction(); // then @Transactional could not begin: the method never ran
    gate.settle(new FakeRequest("alice", "p1", "{}").context(), new ResponseContext(500).context());

    assertThat(gate.lifecycle.phase()).isEqualTo(Phase.RELEASED);
    assertThat(store.find("alice", "widgets.create", "p1").orElseThrow().status())
        .isEqualTo(IdempotencyRecord.Status.RELEASED);
  }

  @Test
  void remote_aCrashedOwnerWhoseLeaseRanOut_isAnUnknownOutcomeNotARunningRequest() {
    Idempotent remote = policy(SideEffects.REMOTE, true);
    admit(remote, "alice", "p1", "{}");
    assertThat(gate.claimOnItsOwn()).isNull(); // then the server died
    store.advance(Duration.ofMinutes(1));

    GateFixtures.lifecycle(gate, new RequestLifecycle());
    admit(remote, "alice", "p1", "{}");
    Response retry = gate.claimOnItsOwn();

    assertThat(retry.getStatus()).isEqualTo(409);
    assertThat(problemType(retry)).endsWith("payment-outcome-unknown");
  }

  // ---------------------------------------------------------------- drivers

  /** The request filter: null when admitted, else its answer. */
  private Response admit(Idempotent policy, String user, String key, String body) {
    GateFixtures.lifecycle(
        gate, gate.lifecycle.phase() == Phase.UNGUARDED ? gate.lifecycle : new RequestLifecycle());
    gate.lifecycle.transactions = transactions;
    FakeRequest request = new FakeRequest(user, key, body);
    gate.admit(policy, request.context());
    return request.aborted;
  }

  /** What a remote operation injects as its {@code IdempotentRequest}, for this request. */
  private com.banhang.idempotency.IdempotentRequest currentRequest() {
    return gate;
  }

  /** The first interceptor, before any transaction; null when the method would run. */
  private Object claimBeforeTransaction() throws Exception {
    return gate.claimBeforeTransaction(invocation(() -> null));
  }

  /** A local request from filter to commit, its method returning {@code result}. */
  private Response runLocal(String key, String body, Callable<Object> result) throws Exception {
    GateFixtures.lifecycle(gate, new RequestLifecycle());
    assertThat(admit(policy(SideEffects.LOCAL, true), "alice", key, body)).isNull();
    return (Response) invokeInTransaction(result, true);
  }

  /** The second interceptor inside a transaction that commits when {@code commit}. */
  private Object invokeInTransaction(Callable<Object> method, boolean commit) throws Exception {
    transactions.begin();
    Object result = gate.executeInTransaction(invocation(method));
    if (commit) {
      transactions.commit();
    } else {
      transactions.rollback();
    }
    return result;
  }

  private static InvocationContext invocation(Callable<Object> method) {
    return (InvocationContext)
        Proxy.newProxyInstance(
            RequestLifecycleTest.class.getClassLoader(),
            new Class<?>[] {InvocationContext.class},
            (proxy, m, args) -> m.getName().equals("proceed") ? method.call() : null);
  }

  private static Response created(String id) {
    return Response.status(201)
        .header("Location", "/widgets/" + id)
        .type(MediaType.APPLICATION_JSON_TYPE)
        .entity(("{\"id\":\"" + id + "\"}").getBytes(UTF_8))
        .build();
  }

  private static String problemType(Response response) {
    return new String((byte[]) response.getEntity(), UTF_8)
        .replaceAll(".*\"type\":\"([^\"]*)\".*", "$1");
  }

  private static Idempotent policy(SideEffects sideEffects, boolean keyRequired) {
    return GateFixtures.policy(
        "widgets.create", sideEffects, keyRequired, "payment-outcome-unknown");
  }

  /** A response on its way out, as the response filter sees it. */
  private static final class ResponseContext {
    int status;
    Object entity = "{\"type\":\"rejected\"}".getBytes(UTF_8);
    final MultivaluedHashMap<String, Object> headers = new MultivaluedHashMap<>();

    ResponseContext(int status) {
      this.status = status;
    }

    ContainerResponseContext context() {
      return (ContainerResponseContext)
          Proxy.newProxyInstance(
              RequestLifecycleTest.class.getClassLoader(),
              new Class<?>[] {ContainerResponseContext.class},
              (p, m, a) ->
                  switch (m.getName()) {
                    case "getHeaders" -> headers;
                    case "getStatus" -> status;
                    case "setStatus" -> {
                      status = (Integer) a[0];
                      yield null;
                    }
                    case "getEntity" -> entity;
                    case "setEntity" -> {
                      entity = a[0];
                      yield null;
                    }
                    default -> null;
                  });
    }
  }
}
