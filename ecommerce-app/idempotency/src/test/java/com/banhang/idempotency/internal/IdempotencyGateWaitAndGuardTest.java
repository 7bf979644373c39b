package com.banhang.idempotency.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.SideEffects;
import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.internal.GateFixtures.FakeRequest;
import com.banhang.idempotency.jdbc.JdbcIdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStore;
import com.banhang.idempotency.spi.InMemoryIdempotencyStore;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two rules of the gate that only show under time and transactions: the bounded wait for a running
 * first attempt ({@code idempotency.in-progress-wait} above zero), and the refusal of a remote
 * operation's claim inside a JTA transaction (a claim there would stay invisible to duplicates
 * until after the remote call).
 */
class IdempotencyGateWaitAndGuardTest {

  private static final Idempotent REMOTE = GateFixtures.policy("parcels.ship", SideEffects.REMOTE);
  private static final String BODY = "{\"parcel\":7}";

  private final List<IdempotencyEvent> events = new ArrayList<>();

  private IdempotencyGate gate(IdempotencyStore store, Duration inProgressWait) {
    Map<String, String> config = new HashMap<>();
    IdempotencySettings settings = GateFixtures.settings(config, List.of("Content-Type"));
    settings.inProgressWait = inProgressWait;
    return GateFixtures.gate(settings, store, GateFixtures.events(events::add));
  }

  /** The filter, then the claim before the transaction: null when this request won the key. */
  private static Response send(IdempotencyGate gate, String key) {
    FakeRequest request = new FakeRequest("dora", key, BODY);
    GateFixtures.lifecycle(gate, new RequestLifecycle());
    gate.admit(REMOTE, request.context());
    return request.aborted != null ? request.aborted : gate.claimOnItsOwn();
  }

  @Test
  void aDuplicateWaits_andIsAnsweredWithTheResultThatCompletesDuringTheWait() throws Exception {
    IdempotencyStore store =
        JdbcIdempotencyStore.forDataSource(GateFixtures.migratedH2("in-progress-wait"));
    IdempotencyGate first = gate(store, Duration.ZERO);
    assertThat(send(first, "wait-1")).as("the first request wins the key").isNull();
    ClaimedKey claim = first.lifecycle.claim();

    // The first attempt completes 300 ms into the duplicate's wait of up to 10 s.
    CompletableFuture<Boolean> completion =
        CompletableFuture.supplyAsync(
            () -> store.complete(claim, new StoredResponse(201, Map.of(), "{\"id\":7}".getBytes())),
            CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS));
    Response duplicate = send(gate(store, Duration.ofSeconds(10)), "wait-1");

    assertThat(completion.get(10, TimeUnit.SECONDS)).isTrue();
    assertThat(duplicate.getStatus()).as("a replay, not 409").isEqualTo(201);
    assertThat(duplicate.getHeaderString(IdempotencyGate.REPLAYED_HEADER)).isEqualTo("true");
    assertThat(new String((byte[]) duplicate.getEntity(), UTF_8)).isEqualTo("{\"id\":7}");
    assertThat(events).extracting(IdempotencyEvent::kind).contains(IdempotencyEvent.Kind.REPLAYED);
  }

  @Test
  void aDuplicateWhoseFirstAttemptOutlastsTheWait_gets409AfterWaiting() {
    IdempotencyStore store =
        JdbcIdempotencyStore.forDataSource(GateFixtures.migratedH2("in-progress-wait"));
    assertThat(send(gate(store, Duration.ZERO), "wait-2")).isNull();

    Duration wait = Duration.ofMillis(1500);
    long started = System.nanoTime();
    Response duplicate = send(gate(store, wait), "wait-2");
    Duration waited = Duration.ofNanos(System.nanoTime() - started);

    assertThat(duplicate.getStatus()).isEqualTo(409);
    assertThat(new String((byte[]) duplicate.getEntity(), UTF_8)).contains("key-in-use");
    // It did wait (a zero wait answers at once); how long beyond the bound is not checked.
    assertThat(waited).isGreaterThanOrEqualTo(wait);
  }

  @Test
  void aRemoteClaimInsideAJtaTransaction_isRefused_andWritesNothing() {
    InMemoryIdempotencyStore store = new InMemoryIdempotencyStore();
    FakeTransactions transactions = new FakeTransactions(store);
    IdempotencyGate gate = gate(store, Duration.ZERO);
    FakeRequest request = new FakeRequest("dora", "guard-1", BODY);
    RequestLifecycle lifecycle = new RequestLifecycle();
    lifecycle.transactions = transactions;
    GateFixtures.lifecycle(gate, lifecycle);
    gate.admit(REMOTE, request.context());

    transactions.begin();
    assertThatThrownBy(gate::claimOnItsOwn)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("inside a JTA transaction");
    transactions.rollback();

    assertThat(store.find("dora", "parcels.ship", "guard-1")).isEmpty();
    assertThat(events)
        .extracting(IdempotencyEvent::kind)
        .doesNotContain(IdempotencyEvent.Kind.CLAIMED);
  }
}
