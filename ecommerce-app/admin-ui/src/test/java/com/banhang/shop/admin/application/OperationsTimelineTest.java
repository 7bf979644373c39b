package com.banhang.shop.admin.application;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.idempotency.IdempotencyEvent.Kind;
import com.banhang.shop.payments.api.GatewayCallFailed;
import com.banhang.shop.payments.api.ReconciliationChecked;
import com.banhang.shop.payments.api.ReconciliationReport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OperationsTimelineTest {

  private static final Instant T0 = Instant.parse("2026-12-01T10:00:30Z");

  @Test
  void eventsCountedInTheirMinute_lastHourHasSixtyMinutesOldestFirst() {
    OperationsTimeline timeline = new OperationsTimeline();
    timeline.useClock(Clock.fixed(T0, ZoneOffset.UTC));
    timeline.onKeyedRequest(new IdempotencyEvent("orders.create", Kind.CLAIMED));
    timeline.onKeyedRequest(new IdempotencyEvent("orders.create", Kind.CLAIMED));
    timeline.onKeyedRequest(new IdempotencyEvent("orders.create", Kind.COMPLETED));
    timeline.useClock(Clock.fixed(T0.plusSeconds(60), ZoneOffset.UTC));
    timeline.onKeyedRequest(new IdempotencyEvent("payments.charge", Kind.KEY_REUSED));
    timeline.onReconciliation(new ReconciliationChecked(ReconciliationReport.Finding.CAPTURED));
    timeline.onGatewayError(new GatewayCallFailed("charge", true));

    Map<Instant, Map<String, Long>> hour = timeline.lastHour();

    List<Instant> minutes = List.copyOf(hour.keySet());
    assertThat(minutes).hasSize(60);
    assertThat(minutes.get(59)).isEqualTo(Instant.parse("2026-12-01T10:01:00Z"));
    assertThat(hour.get(Instant.parse("2026-12-01T10:00:00Z")))
        .containsExactly(Map.entry("orders.create|new", 2L));
    assertThat(hour.get(Instant.parse("2026-12-01T10:01:00Z")))
        .containsOnly(
            Map.entry("payments.charge|mismatch", 1L),
            Map.entry("reconciliation|CAPTURED", 1L),
            Map.entry("gateway|gateway_errors", 1L));
  }

  @Test
  void minutesOlderThanAnHour_dropped() {
    OperationsTimeline timeline = new OperationsTimeline();
    timeline.useClock(Clock.fixed(T0, ZoneOffset.UTC));
    timeline.onKeyedRequest(new IdempotencyEvent("orders.create", Kind.REPLAYED));
    timeline.useClock(Clock.fixed(T0.plus(Duration.ofMinutes(61)), ZoneOffset.UTC));
    timeline.onKeyedRequest(new IdempotencyEvent("orders.create", Kind.IN_PROGRESS));

    long replayed =
        timeline.lastHour().values().stream()
            .mapToLong(m -> m.getOrDefault("orders.create|replayed", 0L))
            .sum();
    assertThat(replayed).isZero();
  }

  @Test
  void chartedCounts_drainedPerEndedMinute_andPutBackAfterAFailedWrite() {
    OperationsTimeline timeline = new OperationsTimeline();
    timeline.useClock(Clock.fixed(T0, ZoneOffset.UTC));
    timeline.onKeyedRequest(new IdempotencyEvent("payments.charge", Kind.OUTCOME_UNKNOWN));
    timeline.onKeyedRequest(new IdempotencyEvent("payments.charge", Kind.MARKED_UNKNOWN));
    timeline.onKeyedRequest(new IdempotencyEvent("payments.charge", Kind.CLAIMED));
    timeline.onGatewayError(new GatewayCallFailed("findByKey", false));
    timeline.onReconciliation(
        new ReconciliationChecked(ReconciliationReport.Finding.GATEWAY_UNREACHABLE));
    timeline.useClock(Clock.fixed(T0.plusSeconds(60), ZoneOffset.UTC));
    timeline.onGatewayError(new GatewayCallFailed("charge", true));

    Instant minute = Instant.parse("2026-12-01T10:00:00Z");
    Instant next = Instant.parse("2026-12-01T10:01:00Z");
    List<ConsoleMinute> ended = timeline.drainBefore(next);

    assertThat(ended)
        .containsExactlyInAnyOrder(
            new ConsoleMinute(minute, "unknown_outcomes", "payments.charge", 2),
            new ConsoleMinute(minute, "gateway_errors", "findByKey", 1),
            new ConsoleMinute(minute, "reconciliation", "GATEWAY_UNREACHABLE", 1));
    // Taken once: a second drain finds only what came since.
    assertThat(timeline.drainBefore(next)).isEmpty();

    timeline.putBack(ended);
    timeline.useClock(Clock.fixed(T0.plusSeconds(120), ZoneOffset.UTC));
    assertThat(timeline.drainBefore(Instant.parse("2026-12-01T10:02:00Z")))
        .containsExactlyInAnyOrder(
            new ConsoleMinute(minute, "unknown_outcomes", "payments.charge", 2),
            new ConsoleMinute(minute, "gateway_errors", "findByKey", 1),
            new ConsoleMinute(minute, "reconciliation", "GATEWAY_UNREACHABLE", 1),
            new ConsoleMinute(next, "gateway_errors", "charge", 1));
  }
}
