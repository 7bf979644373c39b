package com.banhang.gateway.sandbox.charge;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.gateway.sandbox.fault.DropMode;
import com.banhang.gateway.sandbox.fault.FaultControl;
import com.banhang.gateway.sandbox.fault.FaultSettings;
import com.banhang.gateway.sandbox.fault.LatencyPhase;
import java.sql.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The hook that carries a charge's webhook event: its rows are written in the charge's transaction
 * and its after-commit runs once per new charge, before the after-charge latency, and never for a
 * replay, a refused key or a fault that kept the charge from being made.
 */
class ChargeCommitHookTest {

  private static final ChargeRequest OK = new ChargeRequest(5000L, "VND", "order-1", "pm_card_ok");

  /** What happened, in order: writes, after-commits and pauses. */
  private final List<String> steps = new ArrayList<>();

  private final ChargeCommitHook recording =
      new ChargeCommitHook() {
        @Override
        public void inTransaction(Connection connection, Charge charge) {
          steps.add("in transaction " + charge.idempotencyKey());
        }

        @Override
        public void afterCommit(Charge charge) {
          steps.add("after commit " + charge.idempotencyKey());
        }
      };

  private final ChargeRepository repository = new ChargeRepository(H2Databases.fresh(), recording);

  private ChargeService service(FaultSettings faults) {
    repository.createSchemaIfAbsent();
    return new ChargeService(
        repository,
        new FaultControl(faults),
        Duration.ofHours(24),
        Clock.systemUTC(),
        millis -> steps.add("pause " + millis),
        recording);
  }

  private static FaultSettings latency(long millis, double errorBeforeCharge, double loseRequest) {
    return new FaultSettings(
        millis,
        0,
        0,
        LatencyPhase.AFTER_CHARGE,
        0,
        DropMode.GATEWAY_TIMEOUT,
        errorBeforeCharge,
        loseRequest,
        1,
        false);
  }

  @Test
  void aNewChargeRunsTheHookInItsTransactionThenAfterTheCommitBeforeTheLatency() {
    ChargeService service = service(latency(700, 0, 0));

    service.charge("key-1", OK);

    assertThat(steps)
        .containsExactly("pause 0", "in transaction key-1", "after commit key-1", "pause 700");
  }

  @Test
  void aReplayOrAReusedKeyRunsNothing() {
    ChargeService service = service(latency(0, 0, 0));
    service.charge("key-1", OK);
    steps.clear();

    service.charge("key-1", OK);
    service.charge("key-1", new ChargeRequest(9999L, "VND", "order-1", "pm_card_ok"));

    assertThat(steps).doesNotContain("in transaction key-1", "after commit key-1");
  }

  @Test
  void noChargeNoHook() {
    service(latency(0, 1, 0)).charge("key-error", OK);
    service(latency(0, 0, 1)).charge("key-lost", OK);

    assertThat(steps).noneMatch(step -> step.startsWith("in transaction"));
    assertThat(steps).noneMatch(step -> step.startsWith("after commit"));
  }
}
