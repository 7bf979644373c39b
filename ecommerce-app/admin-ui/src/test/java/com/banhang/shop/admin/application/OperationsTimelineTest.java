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
}
