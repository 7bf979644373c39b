package com.banhang.shop.admin.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.KeyStatistics;
import com.banhang.shop.payments.api.GatewayCallFailed;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;

class ConsoleMinuteWriterTest {

  private static final Instant MINUTE = Instant.parse("2026-12-01T10:00:00Z");

  private final OperationsTimeline timeline = new OperationsTimeline();
  private final ConsoleMinuteWriter writer = new ConsoleMinuteWriter();

  @BeforeEach
  void wire() {
    writer.timeline = timeline;
    writer.minutes = mock(ConsoleMinutes.class);
    writer.keys = mock(IdempotencyKeys.class);
    writer.useClock(Clock.fixed(MINUTE.plusSeconds(65), ZoneOffset.UTC));
    timeline.useClock(Clock.fixed(MINUTE.plusSeconds(10), ZoneOffset.UTC));
  }

  @Test
  @SuppressWarnings("unchecked")
  void writesTheEndedMinutesCounts_andTheGaugesOfThatMinute_thenCleansUp() {
    timeline.onGatewayError(new GatewayCallFailed("charge", true));
    Instant claimed = MINUTE.minus(Duration.ofMinutes(10));
    when(writer.keys.statistics())
        .thenReturn(
            new KeyStatistics(
                MINUTE.plusSeconds(65),
                List.of(),
                List.of(
                    new KeyStatistics.StatusGroup(
                        "payments.charge", IdempotencyRecord.Status.PROCESSING, 3, claimed)),
                Map.of()));

    writer.writeMinute();

    ArgumentCaptor<List<ConsoleMinute>> counters = ArgumentCaptor.forClass(List.class);
    ArgumentCaptor<List<ConsoleMinute>> gauges = ArgumentCaptor.forClass(List.class);
    verify(writer.minutes).write(counters.capture(), gauges.capture());
    assertThat(counters.getValue())
        .containsExactly(new ConsoleMinute(MINUTE, "gateway_errors", "charge", 1));
    assertThat(gauges.getValue())
        .contains(
            new ConsoleMinute(MINUTE, "stuck_rows", "payments.charge", 3),
            new ConsoleMinute(MINUTE, "oldest_age", "payments.charge", 665),
            new ConsoleMinute(MINUTE, "stuck_rows", "orders.create", 0),
            new ConsoleMinute(MINUTE, "oldest_age", "orders.create", 0));
    verify(writer.minutes)
        .deleteBefore(
            eq(MINUTE.plusSeconds(60).minus(ConsoleMinuteWriter.RETENTION)), anyInt(), anyInt());
  }

  @Test
  void aFailedWrite_isNotThrown_andKeepsTheCountsForTheNextMinute() {
    timeline.onGatewayError(new GatewayCallFailed("charge", true));
    when(writer.keys.statistics()).thenThrow(new IllegalStateException("database away"));
    doThrow(new IllegalStateException("database away"))
        .when(writer.minutes)
        .write(anyList(), anyList());
    when(writer.minutes.deleteBefore(any(), anyInt(), anyInt()))
        .thenThrow(new IllegalStateException("database away"));

    writer.writeMinute();

    assertThat(timeline.drainBefore(MINUTE.plusSeconds(60)))
        .containsExactly(new ConsoleMinute(MINUTE, "gateway_errors", "charge", 1));
  }

  @Test
  void countsOlderThanTheRetention_areDroppedRatherThanWritten() {
    timeline.useClock(Clock.fixed(MINUTE, ZoneOffset.UTC));
    timeline.onGatewayError(new GatewayCallFailed("charge", true));
    writer.useClock(
        Clock.fixed(MINUTE.plus(ConsoleMinuteWriter.RETENTION).plusSeconds(65), ZoneOffset.UTC));
    when(writer.keys.statistics())
        .thenReturn(new KeyStatistics(MINUTE, List.of(), List.of(), Map.of()));

    writer.writeMinute();

    verify(writer.minutes).write(eq(List.of()), anyList());
  }
}
