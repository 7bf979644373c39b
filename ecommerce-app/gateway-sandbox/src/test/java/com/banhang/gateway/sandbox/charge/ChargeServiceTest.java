package com.banhang.gateway.sandbox.charge;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.gateway.sandbox.MutableClock;
import com.banhang.gateway.sandbox.fault.DropMode;
import com.banhang.gateway.sandbox.fault.FaultControl;
import com.banhang.gateway.sandbox.fault.FaultDecider;
import com.banhang.gateway.sandbox.fault.FaultDecision;
import com.banhang.gateway.sandbox.fault.FaultSettings;
import com.banhang.gateway.sandbox.fault.LatencyPhase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ChargeServiceTest {

  private static final String KEY = "key-1";
  private static final ChargeRequest OK = new ChargeRequest(5000L, "VND", "order-1", "pm_card_ok");

  private final ChargeRepository repository = H2Databases.freshRepository();
  private final FaultControl faults = new FaultControl(FaultSettings.NONE);
  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));

  /** Each pause, and whether the charge of {@link #KEY} was stored when it began. */
  private final List<String> pauses = new ArrayList<>();

  private final ChargeService service =
      new ChargeService(
          repository,
          faults,
          Duration.ofHours(24),
          clock,
          millis -> pauses.add(millis + "ms, charged=" + repository.findByKey(KEY).isPresent()));

  @Test
  void aNewKeyCreatesASucceededCharge() {
    ChargeResult result = service.charge(KEY, OK);

    assertThat(result)
        .isInstanceOfSatisfying(
            ChargeResult.Created.class,
            created -> {
              Charge charge = created.charge();
              assertThat(charge.id()).matches("ch_[0-9A-Za-z]{24}");
              assertThat(charge.status()).isEqualTo(ChargeStatus.SUCCEEDED);
              assertThat(charge.amount()).isEqualTo(5000);
              assertThat(charge.idempotencyKey()).isEqualTo(KEY);
              assertThat(charge.createdAt()).isEqualTo(clock.instant());
              assertThat(repository.findByKey(KEY)).contains(charge);
            });
  }

  @Test
  void theDeclinedTestCardStoresADeclinedCharge() {
    ChargeResult result =
        service.charge(KEY, new ChargeRequest(5000L, "VND", "order-1", "pm_card_declined"));

    assertThat(result)
        .isInstanceOfSatisfying(
            ChargeResult.Created.class,
            created -> assertThat(created.charge().status()).isEqualTo(ChargeStatus.DECLINED));
    assertThat(repository.countsFor("order-1")).isEqualTo(new ChargeCounts(0, 1));
  }

  @Test
  void theSameRequestAgainReplaysTheStoredChargeAndChargesNothingMore() {
    Charge first = ((ChargeResult.Created) service.charge(KEY, OK)).charge();

    ChargeResult again =
        service.charge(KEY, new ChargeRequest(5000L, "VND", "order-1", "pm_card_ok"));

    assertThat(again).isEqualTo(new ChargeResult.Replayed(first));
    assertThat(repository.countsFor("order-1")).isEqualTo(new ChargeCounts(1, 0));
  }

  @Test
  void anotherRequestUnderTheSameKeyIsRefused() {
    service.charge(KEY, OK);

    ChargeResult reused =
        service.charge(KEY, new ChargeRequest(5001L, "VND", "order-1", "pm_card_ok"));

    assertThat(reused).isInstanceOf(ChargeResult.KeyReused.class);
    assertThat(repository.countsFor("order-1")).isEqualTo(new ChargeCounts(1, 0));
  }

  @Test
  void anExpiredKeyStartsANewChargeAndTheOldOneStillCounts() {
    Charge first = ((ChargeResult.Created) service.charge(KEY, OK)).charge();
    clock.advance(Duration.ofHours(23));
    assertThat(service.findByKey(KEY)).contains(first);

    clock.advance(Duration.ofHours(1));
    assertThat(service.findByKey(KEY)).as("outside the retention window").isEmpty();
    ChargeResult second = service.charge(KEY, OK);

    assertThat(second)
        .isInstanceOfSatisfying(
            ChargeResult.Created.class,
            created -> assertThat(created.charge().id()).isNotEqualTo(first.id()));
    assertThat(repository.countsFor("order-1")).isEqualTo(new ChargeCounts(2, 0));
  }

  @Test
  void anErrorBeforeTheChargeStoresNothing() {
    faults.replace(settings(0, LatencyPhase.AFTER_CHARGE, 0, 1));

    assertThat(service.charge(KEY, OK)).isInstanceOf(ChargeResult.ProcessorUnavailable.class);
    assertThat(repository.findByKey(KEY)).isEmpty();

    faults.reset();
    assertThat(service.charge(KEY, OK))
        .as("the key was not used up")
        .isInstanceOf(ChargeResult.Created.class);
  }

  @Test
  void aDroppedResponseStillCommitsTheCharge() {
    faults.replace(
        new FaultSettings(0, 0, 0, LatencyPhase.AFTER_CHARGE, 1, DropMode.RESET, 0, 0, 42, false));

    ChargeResult result = service.charge(KEY, OK);

    assertThat(result)
        .isInstanceOfSatisfying(
            ChargeResult.ResponseDropped.class,
            dropped -> {
              assertThat(dropped.mode()).isEqualTo(DropMode.RESET);
              assertThat(repository.findByKey(KEY)).contains(dropped.charge());
            });
  }

  @Test
  void aReplayIsNeitherDroppedNorFailedButWaitsTheLatency() {
    Charge first = ((ChargeResult.Created) service.charge(KEY, OK)).charge();
    faults.replace(
        new FaultSettings(30, 0, 0, LatencyPhase.AFTER_CHARGE, 1, DropMode.RESET, 1, 1, 42, false));
    pauses.clear();

    assertThat(service.charge(KEY, OK)).isEqualTo(new ChargeResult.Replayed(first));
    assertThat(pauses).containsExactly("30ms, charged=true");
  }

  @Test
  void withFaultsOnReplaysAReplayLosesItsResponseButChargesNothingMore() {
    Charge first = ((ChargeResult.Created) service.charge(KEY, OK)).charge();
    faults.replace(onReplays(30, 1, DropMode.RESET, 0));
    pauses.clear();

    ChargeResult again = service.charge(KEY, OK);

    assertThat(again).isEqualTo(new ChargeResult.ResponseDropped(first, DropMode.RESET));
    assertThat(pauses).containsExactly("30ms, charged=true");
    assertThat(repository.countsFor("order-1")).isEqualTo(new ChargeCounts(1, 0));
    assertThat(service.findByKey(KEY)).as("the lookup is never faulted").contains(first);
  }

  @Test
  void withFaultsOnReplaysEveryAnswerForTheKeyIsLostFromTheFirstCallOn() {
    faults.replace(onReplays(0, 1, DropMode.GATEWAY_TIMEOUT, 0));

    ChargeResult first = service.charge(KEY, OK);
    ChargeResult second = service.charge(KEY, OK);
    ChargeResult third = service.charge(KEY, OK);

    assertThat(first).isInstanceOf(ChargeResult.ResponseDropped.class);
    Charge charge = ((ChargeResult.ResponseDropped) first).charge();
    assertThat(second)
        .isEqualTo(new ChargeResult.ResponseDropped(charge, DropMode.GATEWAY_TIMEOUT));
    assertThat(third).isEqualTo(second);
    assertThat(service.findByKey(KEY)).contains(charge);
    assertThat(repository.countsFor("order-1")).isEqualTo(new ChargeCounts(1, 0));

    faults.replace(
        new FaultSettings(
            0, 0, 0, LatencyPhase.AFTER_CHARGE, 1, DropMode.GATEWAY_TIMEOUT, 0, 0, 42, false));
    assertThat(service.charge(KEY, OK))
        .as("without the flag the replay is answered")
        .isEqualTo(new ChargeResult.Replayed(charge));
  }

  @Test
  void withFaultsOnReplaysAnErrorBeforeTheChargeAnswersAReplayAndChangesNothing() {
    Charge first = ((ChargeResult.Created) service.charge(KEY, OK)).charge();
    faults.replace(onReplays(30, 1, DropMode.RESET, 1));
    pauses.clear();

    assertThat(service.charge(KEY, OK))
        .as("the error wins over the drop, as for a new charge")
        .isInstanceOf(ChargeResult.ProcessorUnavailable.class);
    assertThat(pauses).containsExactly("30ms, charged=true");
    assertThat(repository.findByKey(KEY)).contains(first);
    assertThat(repository.countsFor("order-1")).isEqualTo(new ChargeCounts(1, 0));

    faults.reset();
    assertThat(service.charge(KEY, OK)).isEqualTo(new ChargeResult.Replayed(first));
  }

  @Test
  void withFaultsOnReplaysAKeyReusedForAnotherRequestIsStillRefused() {
    service.charge(KEY, OK);
    faults.replace(onReplays(0, 1, DropMode.GATEWAY_TIMEOUT, 1));

    ChargeResult reused =
        service.charge(KEY, new ChargeRequest(5001L, "VND", "order-1", "pm_card_ok"));

    assertThat(reused).isInstanceOf(ChargeResult.KeyReused.class);
  }

  @Test
  void withFaultsOnReplaysAReplayUsesTheDecisionDrawnForItsCall() {
    // Every call, first or replay, takes the next decision of the seeded sequence, and only that
    // one.
    FaultSettings settings = onReplays(0, 0.5, DropMode.GATEWAY_TIMEOUT, 0.3);
    faults.replace(settings);
    FaultDecider expected = new FaultDecider(settings);
    Charge charge = null;
    int answered = 0;

    for (int call = 0; call < 40; call++) {
      FaultDecision decision = expected.next();
      ChargeResult result = service.charge(KEY, OK);
      if (charge == null) {
        if (decision.errorBeforeCharge()) {
          assertThat(result).isInstanceOf(ChargeResult.ProcessorUnavailable.class);
          continue;
        }
        charge = repository.findByKey(KEY).orElseThrow();
        assertThat(result)
            .isEqualTo(
                decision.dropResponse()
                    ? new ChargeResult.ResponseDropped(charge, DropMode.GATEWAY_TIMEOUT)
                    : new ChargeResult.Created(charge));
        continue;
      }
      if (decision.errorBeforeCharge()) {
        assertThat(result)
            .as("call %d", call)
            .isInstanceOf(ChargeResult.ProcessorUnavailable.class);
      } else if (decision.dropResponse()) {
        assertThat(result)
            .as("call %d", call)
            .isEqualTo(new ChargeResult.ResponseDropped(charge, DropMode.GATEWAY_TIMEOUT));
      } else {
        assertThat(result).as("call %d", call).isEqualTo(new ChargeResult.Replayed(charge));
        answered++;
      }
    }

    assertThat(answered).as("some replays answered, some not").isBetween(1, 38);
    assertThat(repository.countsFor("order-1")).isEqualTo(new ChargeCounts(1, 0));
  }

  @Test
  void aLostRequestChargesNothingAndTheKeyStaysFreeForALaterPost() {
    faults.replace(losing(0, LatencyPhase.AFTER_CHARGE, DropMode.GATEWAY_TIMEOUT));

    ChargeResult lost = service.charge(KEY, OK);

    assertThat(lost)
        .isInstanceOfSatisfying(
            ChargeResult.RequestLost.class,
            requestLost -> {
              assertThat(requestLost.mode()).isEqualTo(DropMode.GATEWAY_TIMEOUT);
              assertThat(requestLost.notCreated().idempotencyKey()).isEqualTo(KEY);
              assertThat(requestLost.notCreated().status()).isEqualTo(ChargeStatus.SUCCEEDED);
            });
    assertThat(repository.findByKey(KEY)).as("no charge stored").isEmpty();
    assertThat(service.findByKey(KEY)).as("the lookup answers 404").isEmpty();
    assertThat(service.countsFor("order-1")).isEqualTo(new ChargeCounts(0, 0));
    assertThat(service.totals()).isEqualTo(new ChargeCounts(0, 0));
    assertThat(service.succeededByOrderReference()).isEmpty();

    faults.reset();
    ChargeResult later = service.charge(KEY, OK);
    assertThat(later)
        .as("the same key, faults reset: a new charge")
        .isInstanceOf(ChargeResult.Created.class);
    Charge charge = ((ChargeResult.Created) later).charge();
    assertThat(charge.id()).isNotEqualTo(((ChargeResult.RequestLost) lost).notCreated().id());
    assertThat(service.findByKey(KEY)).contains(charge);
    assertThat(service.charge(KEY, OK)).isEqualTo(new ChargeResult.Replayed(charge));
    assertThat(service.countsFor("order-1")).as("charged once").isEqualTo(new ChargeCounts(1, 0));
  }

  @Test
  void aLostRequestWaitsTheWholeLatencyThenFailsAsTheDropModeSays() {
    faults.replace(losing(30, LatencyPhase.AFTER_CHARGE, DropMode.RESET));

    ChargeResult lost =
        service.charge(KEY, new ChargeRequest(5000L, "VND", "order-1", "pm_card_declined"));

    assertThat(lost)
        .isInstanceOfSatisfying(
            ChargeResult.RequestLost.class,
            requestLost -> {
              assertThat(requestLost.mode()).isEqualTo(DropMode.RESET);
              // The broken answer has the shape the stored charge's would have had (here a 402).
              assertThat(requestLost.notCreated().status()).isEqualTo(ChargeStatus.DECLINED);
            });
    assertThat(pauses).containsExactly("30ms, charged=false");
    assertThat(repository.countsFor("order-1")).isEqualTo(new ChargeCounts(0, 0));

    faults.replace(losing(30, LatencyPhase.BEFORE_CHARGE, DropMode.GATEWAY_TIMEOUT));
    pauses.clear();
    assertThat(service.charge(KEY, OK)).isInstanceOf(ChargeResult.RequestLost.class);
    assertThat(pauses).as("whatever the phase").containsExactly("30ms, charged=false");
  }

  @Test
  void aLostRequestWinsOverAnErrorBeforeTheCharge() {
    // The processor never sees a lost request, so it cannot answer 503 for it either.
    faults.replace(
        new FaultSettings(
            0, 0, 0, LatencyPhase.AFTER_CHARGE, 1, DropMode.GATEWAY_TIMEOUT, 1, 1, 42, false));

    assertThat(service.charge(KEY, OK)).isInstanceOf(ChargeResult.RequestLost.class);
    assertThat(repository.findByKey(KEY)).isEmpty();
  }

  @Test
  void aReplayOrAReusedKeyIsNeverLostOnTheWayIn() {
    Charge first = ((ChargeResult.Created) service.charge(KEY, OK)).charge();

    faults.replace(losing(0, LatencyPhase.AFTER_CHARGE, DropMode.GATEWAY_TIMEOUT));
    assertThat(service.charge(KEY, OK)).isEqualTo(new ChargeResult.Replayed(first));
    assertThat(service.charge(KEY, new ChargeRequest(5001L, "VND", "order-1", "pm_card_ok")))
        .isInstanceOf(ChargeResult.KeyReused.class);

    // faultsOnReplays does not bring the lost request to replays: with only that fault on, a replay
    // is answered
    faults.replace(
        new FaultSettings(0, 0, 0, LatencyPhase.AFTER_CHARGE, 0, DropMode.RESET, 0, 1, 42, true));
    assertThat(service.charge(KEY, OK)).isEqualTo(new ChargeResult.Replayed(first));
    // and a replay keeps the faults it had before, such as a dropped response naming the stored
    // charge.
    faults.replace(
        new FaultSettings(0, 0, 0, LatencyPhase.AFTER_CHARGE, 1, DropMode.RESET, 0, 1, 42, true));
    assertThat(service.charge(KEY, OK))
        .isEqualTo(new ChargeResult.ResponseDropped(first, DropMode.RESET));

    assertThat(repository.countsFor("order-1")).isEqualTo(new ChargeCounts(1, 0));
  }

  @Test
  void aChargeIsFoundByItsIdAfterItsKeyExpiredAndANewChargeTookTheKey() {
    Charge old = ((ChargeResult.Created) service.charge(KEY, OK)).charge();
    clock.advance(Duration.ofHours(24));
    Charge renewed = ((ChargeResult.Created) service.charge(KEY, OK)).charge();

    assertThat(service.findByKey(KEY)).contains(renewed);
    assertThat(service.findById(old.id())).contains(old);
    assertThat(service.findById(renewed.id())).contains(renewed);
    assertThat(service.findById("ch_never")).isEmpty();
  }

  @Test
  void aLostRequestForAnExpiredKeyLeavesTheOldChargeAsItWas() {
    Charge old = ((ChargeResult.Created) service.charge(KEY, OK)).charge();
    clock.advance(Duration.ofHours(24));
    faults.replace(losing(0, LatencyPhase.AFTER_CHARGE, DropMode.GATEWAY_TIMEOUT));

    assertThat(service.charge(KEY, OK))
        .as("an expired key is a new key")
        .isInstanceOf(ChargeResult.RequestLost.class);
    assertThat(repository.findByKey(KEY))
        .as("not even retired: the processor never saw it")
        .contains(old);
    assertThat(service.findByKey(KEY)).isEmpty();

    faults.reset();
    assertThat(service.charge(KEY, OK))
        .isInstanceOfSatisfying(
            ChargeResult.Created.class,
            created -> assertThat(created.charge().id()).isNotEqualTo(old.id()));
    assertThat(repository.countsFor("order-1")).isEqualTo(new ChargeCounts(2, 0));
  }

  @Test
  void lostRequestsFollowTheSeededDecisionOfEachCall() {
    FaultSettings settings =
        new FaultSettings(
            0, 0, 0, LatencyPhase.AFTER_CHARGE, 0, DropMode.GATEWAY_TIMEOUT, 0, 0.5, 42, false);
    faults.replace(settings);
    FaultDecider expected = new FaultDecider(settings);
    int lost = 0;

    for (int call = 0; call < 40; call++) {
      boolean lose = expected.next().loseRequest();
      ChargeResult result = service.charge("key-" + call, OK);
      assertThat(result)
          .as("call %d", call)
          .isInstanceOf(lose ? ChargeResult.RequestLost.class : ChargeResult.Created.class);
      lost += lose ? 1 : 0;
    }

    assertThat(lost).as("some lost, some charged").isBetween(1, 39);
    assertThat(repository.countsFor("order-1")).isEqualTo(new ChargeCounts(40 - lost, 0));
  }

  @Test
  void latencyAfterTheChargeIsSpentOnceTheChargeIsCommitted() {
    faults.replace(settings(800, LatencyPhase.AFTER_CHARGE, 0, 0));

    service.charge(KEY, OK);

    assertThat(pauses).containsExactly("0ms, charged=false", "800ms, charged=true");
  }

  @Test
  void latencyBeforeTheChargeIsSpentBeforeTheChargeIsCommitted() {
    faults.replace(settings(800, LatencyPhase.BEFORE_CHARGE, 0, 0));

    service.charge(KEY, OK);

    assertThat(pauses).containsExactly("800ms, charged=false", "0ms, charged=true");
  }

  @Test
  void withFaultsOnReplaysConcurrentRequestsWithOneKeyAllLoseTheirAnswerAndChargeOnce()
      throws Exception {
    faults.replace(onReplays(0, 1, DropMode.GATEWAY_TIMEOUT, 0));
    ChargeService sleeping =
        new ChargeService(repository, faults, Duration.ofHours(24), Clock.systemUTC(), Pause.SLEEP);
    int requests = 20;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(requests);
    try {
      List<Future<ChargeResult>> results = new ArrayList<>();
      for (int i = 0; i < requests; i++) {
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return sleeping.charge("parallel", OK);
                }));
      }
      start.countDown();

      List<String> chargeIds = new ArrayList<>();
      for (Future<ChargeResult> future : results) {
        // The winner, the replays and the losers of the insert alike.
        ChargeResult result = future.get(30, TimeUnit.SECONDS);
        assertThat(result).isInstanceOf(ChargeResult.ResponseDropped.class);
        chargeIds.add(((ChargeResult.ResponseDropped) result).charge().id());
      }

      assertThat(chargeIds).hasSize(requests).containsOnly(chargeIds.get(0));
      assertThat(repository.countsFor("order-1")).isEqualTo(new ChargeCounts(1, 0));
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void concurrentRequestsWithOneKeyCreateExactlyOneCharge() throws Exception {
    ChargeService sleeping =
        new ChargeService(repository, faults, Duration.ofHours(24), Clock.systemUTC(), Pause.SLEEP);
    int requests = 20;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(requests);
    try {
      List<Future<ChargeResult>> results = new ArrayList<>();
      for (int i = 0; i < requests; i++) {
        Callable<ChargeResult> call =
            () -> {
              start.await();
              return sleeping.charge("parallel", OK);
            };
        results.add(pool.submit(call));
      }
      start.countDown();

      List<String> chargeIds = new ArrayList<>();
      int created = 0;
      for (Future<ChargeResult> future : results) {
        ChargeResult result = future.get(30, TimeUnit.SECONDS);
        if (result instanceof ChargeResult.Created c) {
          created++;
          chargeIds.add(c.charge().id());
        } else {
          assertThat(result).isInstanceOf(ChargeResult.Replayed.class);
          chargeIds.add(((ChargeResult.Replayed) result).charge().id());
        }
      }

      assertThat(created).isEqualTo(1);
      assertThat(chargeIds).hasSize(requests).containsOnly(chargeIds.get(0));
      assertThat(repository.countsFor("order-1")).isEqualTo(new ChargeCounts(1, 0));
    } finally {
      pool.shutdownNow();
    }
  }

  private static FaultSettings settings(
      long latencyMs, LatencyPhase phase, double drop, double errorBefore) {
    return new FaultSettings(
        latencyMs, 0, 0, phase, drop, DropMode.GATEWAY_TIMEOUT, errorBefore, 0, 42, false);
  }

  private static FaultSettings onReplays(
      long latencyMs, double drop, DropMode mode, double errorBefore) {
    return new FaultSettings(
        latencyMs, 0, 0, LatencyPhase.AFTER_CHARGE, drop, mode, errorBefore, 0, 42, true);
  }

  /** Every request for a new key lost, nothing else injected but the latency. */
  private static FaultSettings losing(long latencyMs, LatencyPhase phase, DropMode mode) {
    return new FaultSettings(latencyMs, 0, 0, phase, 0, mode, 0, 1, 42, false);
  }
}
