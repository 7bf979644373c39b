package com.banhang.gateway.sandbox.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class WebhookFaultDeciderTest {

  private static WebhookFaultSettings settings(double probability, long seed) {
    return new WebhookFaultSettings(
        probability, 1000, 5000, probability, probability, 60_000, probability, probability, seed);
  }

  private static List<WebhookFaultDecision> draw(WebhookFaultDecider decider, int count) {
    return IntStream.range(0, count).mapToObj(i -> decider.next()).toList();
  }

  @Test
  void theSameSeedRepeatsTheSameDecisions() {
    List<WebhookFaultDecision> first = draw(new WebhookFaultDecider(settings(0.5, 7)), 200);
    List<WebhookFaultDecision> second = draw(new WebhookFaultDecider(settings(0.5, 7)), 200);

    assertThat(first).isEqualTo(second);
    // Not trivially equal: with 0.5 each, both outcomes occur for every fault.
    assertThat(first).extracting(WebhookFaultDecision::duplicate).contains(true, false);
    assertThat(first).extracting(WebhookFaultDecision::reorder).contains(true, false);
    assertThat(first).extracting(WebhookFaultDecision::loseFirstAttempt).contains(true, false);
    assertThat(first).extracting(WebhookFaultDecision::early).contains(true, false);
    assertThat(first).extracting(WebhookFaultDecision::delayMs).contains(0L);
  }

  @Test
  void anotherSeedGivesAnotherSequence() {
    assertThat(draw(new WebhookFaultDecider(settings(0.5, 7)), 200))
        .isNotEqualTo(draw(new WebhookFaultDecider(settings(0.5, 8)), 200));
  }

  @Test
  void probabilityZeroNeverFiresAndOneAlwaysFires() {
    List<WebhookFaultDecision> never = draw(new WebhookFaultDecider(settings(0, 42)), 500);
    List<WebhookFaultDecision> always = draw(new WebhookFaultDecider(settings(1, 42)), 500);

    assertThat(never)
        .allSatisfy(
            decision ->
                assertThat(decision)
                    .isEqualTo(new WebhookFaultDecision(0, false, false, false, false, 60_000)));
    assertThat(always)
        .allSatisfy(
            decision -> {
              assertThat(decision.duplicate()).isTrue();
              assertThat(decision.reorder()).isTrue();
              assertThat(decision.loseFirstAttempt()).isTrue();
              assertThat(decision.early()).isTrue();
            });
  }

  @Test
  void aDelayIsDrawnWithinItsRangeAndCoversIt() {
    List<WebhookFaultDecision> decisions = draw(new WebhookFaultDecider(settings(1, 3)), 1000);

    assertThat(decisions).extracting(WebhookFaultDecision::delayMs).allMatch(ms -> ms >= 1000);
    assertThat(decisions).extracting(WebhookFaultDecision::delayMs).allMatch(ms -> ms <= 5000);
    assertThat(decisions).extracting(WebhookFaultDecision::delayMs).anyMatch(ms -> ms < 1500);
    assertThat(decisions).extracting(WebhookFaultDecision::delayMs).anyMatch(ms -> ms > 4500);
  }

  @Test
  void aFixedDelayIsExactlyThatDelay() {
    WebhookFaultSettings fixed = new WebhookFaultSettings(1, 800, 800, 0, 0, 60_000, 0, 0, 11);

    assertThat(draw(new WebhookFaultDecider(fixed), 50))
        .extracting(WebhookFaultDecision::delayMs)
        .containsOnly(800L);
  }

  @Test
  void changingOneProbabilityDoesNotShiftTheOtherDecisions() {
    WebhookFaultSettings base = new WebhookFaultSettings(0.5, 0, 1000, 0.5, 0.5, 0, 0.5, 0.5, 9);
    WebhookFaultSettings noDuplicates =
        new WebhookFaultSettings(0.5, 0, 1000, 0.0, 0.5, 0, 0.5, 0.5, 9);

    List<WebhookFaultDecision> withDuplicates = draw(new WebhookFaultDecider(base), 200);
    List<WebhookFaultDecision> without = draw(new WebhookFaultDecider(noDuplicates), 200);

    assertThat(without)
        .extracting(WebhookFaultDecision::loseFirstAttempt)
        .isEqualTo(withDuplicates.stream().map(WebhookFaultDecision::loseFirstAttempt).toList());
    assertThat(without)
        .extracting(WebhookFaultDecision::delayMs)
        .isEqualTo(withDuplicates.stream().map(WebhookFaultDecision::delayMs).toList());
    assertThat(without).extracting(WebhookFaultDecision::duplicate).containsOnly(false);
  }

  @Test
  void theControlReSeedsOnReplaceAndReset() {
    WebhookFaultControl control = new WebhookFaultControl(settings(0.5, 5));
    List<WebhookFaultDecision> first =
        IntStream.range(0, 50).mapToObj(i -> control.nextDecision()).toList();

    control.replace(settings(0.5, 6));
    control.reset();
    List<WebhookFaultDecision> again =
        IntStream.range(0, 50).mapToObj(i -> control.nextDecision()).toList();

    assertThat(again).isEqualTo(first);
    assertThat(control.current()).isEqualTo(settings(0.5, 5));
  }
}
