package com.banhang.gateway.sandbox.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FaultDeciderTest {

  private static FaultSettings settings(
      double slow, double error, double drop, double lose, long seed) {
    return settings(slow, error, drop, lose, seed, false);
  }

  private static FaultSettings settings(
      double slow, double error, double drop, double lose, long seed, boolean faultsOnReplays) {
    return new FaultSettings(
        100,
        slow,
        1000,
        LatencyPhase.AFTER_CHARGE,
        drop,
        DropMode.GATEWAY_TIMEOUT,
        error,
        lose,
        seed,
        faultsOnReplays);
  }

  private static List<FaultDecision> draw(FaultDecider decider, int count) {
    return IntStream.range(0, count).mapToObj(i -> decider.next()).toList();
  }

  @Test
  void theSameSeedRepeatsTheSameDecisions() {
    FaultSettings settings = settings(0.5, 0.5, 0.5, 0.5, 7);

    List<FaultDecision> first = draw(new FaultDecider(settings), 200);
    List<FaultDecision> second = draw(new FaultDecider(settings), 200);

    assertThat(first).isEqualTo(second);
    // Not trivially equal: with 0.5 each, both results occur.
    assertThat(first).extracting(FaultDecision::dropResponse).contains(true, false);
    assertThat(first).extracting(FaultDecision::loseRequest).contains(true, false);
  }

  @Test
  void anotherSeedGivesAnotherSequence() {
    List<FaultDecision> seven = draw(new FaultDecider(settings(0.5, 0.5, 0.5, 0.5, 7)), 200);
    List<FaultDecision> eight = draw(new FaultDecider(settings(0.5, 0.5, 0.5, 0.5, 8)), 200);

    assertThat(seven).isNotEqualTo(eight);
  }

  @Test
  void probabilityZeroNeverFiresAndOneAlwaysFires() {
    List<FaultDecision> never = draw(new FaultDecider(settings(0, 0, 0, 0, 42)), 1000);
    List<FaultDecision> always = draw(new FaultDecider(settings(1, 1, 1, 1, 42)), 1000);

    assertThat(never)
        .allSatisfy(
            decision -> {
              assertThat(decision.errorBeforeCharge()).isFalse();
              assertThat(decision.dropResponse()).isFalse();
              assertThat(decision.loseRequest()).isFalse();
              assertThat(decision.latencyMs()).isEqualTo(100);
            });
    assertThat(always)
        .allSatisfy(
            decision -> {
              assertThat(decision.errorBeforeCharge()).isTrue();
              assertThat(decision.dropResponse()).isTrue();
              assertThat(decision.loseRequest()).isTrue();
              assertThat(decision.latencyMs()).isEqualTo(1100);
            });
  }

  @Test
  void decisionsFireAboutAsOftenAsTheirProbability() {
    List<FaultDecision> decisions =
        draw(new FaultDecider(settings(0.1, 0.3, 0.6, 0.45, 42)), 10_000);

    assertThat(decisions.stream().filter(d -> d.latencyMs() > 100).count()).isBetween(850L, 1150L);
    assertThat(decisions.stream().filter(FaultDecision::errorBeforeCharge).count())
        .isBetween(2700L, 3300L);
    assertThat(decisions.stream().filter(FaultDecision::dropResponse).count())
        .isBetween(5700L, 6300L);
    assertThat(decisions.stream().filter(FaultDecision::loseRequest).count())
        .isBetween(4200L, 4800L);
  }

  @Test
  void changingOneProbabilityDoesNotShiftTheOtherDecisions() {
    // Every decision draws four numbers, so slow calls land on the same calls whatever the drop
    // rate is.
    List<Long> withoutDrops =
        draw(new FaultDecider(settings(0.5, 0, 0, 0, 3)), 300).stream()
            .map(FaultDecision::latencyMs)
            .toList();
    List<Long> withDrops =
        draw(new FaultDecider(settings(0.5, 0, 0.9, 0, 3)), 300).stream()
            .map(FaultDecision::latencyMs)
            .toList();

    assertThat(withDrops).isEqualTo(withoutDrops);
  }

  @Test
  void losingRequestsShiftsNoOtherDecisionAndTheOthersShiftNoLostRequest() {
    List<FaultDecision> without = draw(new FaultDecider(settings(0.5, 0.5, 0.5, 0, 3)), 300);
    List<FaultDecision> with = draw(new FaultDecider(settings(0.5, 0.5, 0.5, 0.7, 3)), 300);

    assertThat(with).extracting(FaultDecision::loseRequest).contains(true, false);
    assertThat(
            with.stream()
                .map(
                    d ->
                        new FaultDecision(
                            d.latencyMs(),
                            d.latencyPhase(),
                            d.errorBeforeCharge(),
                            d.dropResponse(),
                            false,
                            d.dropMode(),
                            d.faultsOnReplays()))
                .toList())
        .isEqualTo(without);

    List<Boolean> lostAlone =
        draw(new FaultDecider(settings(0, 0, 0, 0.7, 3)), 300).stream()
            .map(FaultDecision::loseRequest)
            .toList();
    assertThat(with).extracting(FaultDecision::loseRequest).isEqualTo(lostAlone);
  }

  @Test
  void eachDecisionDrawsFourNumbersInTheDocumentedOrder() {
    // README: slow?, error before charge?, drop response?, lose request? Each "yes" when the number
    // < 0.5.
    Random random = new Random(77);
    FaultDecider decider = new FaultDecider(settings(0.5, 0.5, 0.5, 0.5, 77));

    for (int call = 0; call < 100; call++) {
      boolean slow = random.nextDouble() < 0.5;
      boolean error = random.nextDouble() < 0.5;
      boolean drop = random.nextDouble() < 0.5;
      boolean lose = random.nextDouble() < 0.5;

      assertThat(decider.next())
          .as("call %d", call)
          .isEqualTo(
              new FaultDecision(
                  slow ? 1100 : 100,
                  LatencyPhase.AFTER_CHARGE,
                  error,
                  drop,
                  lose,
                  DropMode.GATEWAY_TIMEOUT,
                  false));
    }
  }

  @Test
  void latencyIsSpentBeforeOrAfterTheChargeAsThePhaseSays() {
    FaultDecision after =
        new FaultDecision(
            800, LatencyPhase.AFTER_CHARGE, false, false, false, DropMode.GATEWAY_TIMEOUT, false);
    FaultDecision before =
        new FaultDecision(
            800, LatencyPhase.BEFORE_CHARGE, false, false, false, DropMode.GATEWAY_TIMEOUT, false);

    assertThat(after.latencyBeforeChargeMs()).isZero();
    assertThat(after.latencyAfterChargeMs()).isEqualTo(800);
    assertThat(before.latencyBeforeChargeMs()).isEqualTo(800);
    assertThat(before.latencyAfterChargeMs()).isZero();
  }

  @Test
  void decisionsCarryThePhaseDropModeAndReplayFlagOfTheSettings() {
    FaultSettings settings =
        new FaultSettings(5, 0, 1000, LatencyPhase.BEFORE_CHARGE, 1, DropMode.RESET, 0, 0, 1, true);

    FaultDecision decision = new FaultDecider(settings).next();

    assertThat(decision.latencyPhase()).isEqualTo(LatencyPhase.BEFORE_CHARGE);
    assertThat(decision.dropMode()).isEqualTo(DropMode.RESET);
    assertThat(decision.latencyMs()).isEqualTo(5);
    assertThat(decision.faultsOnReplays()).isTrue();
    assertThat(new FaultDecider(FaultSettings.NONE).next().faultsOnReplays()).isFalse();
  }

  @Test
  void theReplayFlagDrawsNothingAndShiftsNoDecision() {
    List<FaultDecision> off = draw(new FaultDecider(settings(0.5, 0.5, 0.5, 0.5, 9, false)), 300);
    List<FaultDecision> on = draw(new FaultDecider(settings(0.5, 0.5, 0.5, 0.5, 9, true)), 300);

    assertThat(on).extracting(FaultDecision::faultsOnReplays).containsOnly(true);
    // Still four numbers per decision: the same seed gives the same slow/error/drop/lose draws
    // either way.
    List<FaultDecision> onWithoutTheFlag =
        on.stream()
            .map(
                d ->
                    new FaultDecision(
                        d.latencyMs(),
                        d.latencyPhase(),
                        d.errorBeforeCharge(),
                        d.dropResponse(),
                        d.loseRequest(),
                        d.dropMode(),
                        false))
            .toList();
    assertThat(onWithoutTheFlag).isEqualTo(off);
  }

  @Test
  void noCallWaitsLongerThanTheMaximumLatencyEvenWhenSlow() {
    FaultSettings longest =
        new FaultSettings(
            FaultSettings.MAX_LATENCY_MS,
            1,
            FaultSettings.MAX_LATENCY_MS,
            LatencyPhase.AFTER_CHARGE,
            0,
            DropMode.RESET,
            0,
            0,
            1,
            false);

    FaultDecision decision = new FaultDecider(longest).next();

    assertThat(decision.latencyMs()).isEqualTo(FaultSettings.MAX_LATENCY_MS);
    assertThat(FaultSettings.MAX_LATENCY_MS).isLessThanOrEqualTo(30_000);
  }
}
