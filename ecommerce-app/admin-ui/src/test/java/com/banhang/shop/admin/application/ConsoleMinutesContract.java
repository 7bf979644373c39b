package com.banhang.shop.admin.application;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code console_minute} on a database created by the script the shop ships (V17): counters add up
 * over writes and writers, gauges keep the largest reading, the cleanup deletes what is older than
 * the cutoff in batches, and a read returns the minutes of its range.
 */
abstract class ConsoleMinutesContract {

  static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  abstract DataSource dataSource();

  ConsoleMinutes minutes;

  /**
   * Runs V17 alone: the table depends on no other, and the tests then do not depend on migrations
   * being written beside it. The sequence itself is checked where the WAR migrates (shop-web).
   */
  static void migrate(DataSource dataSource, String folder) throws IOException {
    Path sql = Path.of(System.getProperty("sql.dir", "../../sql"), folder);
    Path only = Files.createTempDirectory("console-minute-" + folder);
    Files.copy(
        sql.resolve("V17__console_minutes.sql"),
        only.resolve("V17__console_minutes.sql"),
        StandardCopyOption.REPLACE_EXISTING);
    Flyway.configure().dataSource(dataSource).locations("filesystem:" + only).load().migrate();
  }

  @BeforeEach
  void emptyTable() throws SQLException {
    try (Connection connection = dataSource().getConnection();
        Statement statement = connection.createStatement()) {
      statement.executeUpdate("DELETE FROM console_minute");
    }
    minutes = store();
  }

  private void execute(String sql) throws SQLException {
    try (Connection connection = dataSource().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  ConsoleMinutes store() {
    ConsoleMinutes store = new ConsoleMinutes();
    store.dataSource = dataSource();
    return store;
  }

  static ConsoleMinute row(Instant minute, String signal, String series, long reading) {
    return new ConsoleMinute(minute, signal, series, reading);
  }

  private List<ConsoleMinute> all() {
    return minutes.read(T0.minus(Duration.ofDays(10)), T0.plus(Duration.ofDays(10)));
  }

  private long reading(Instant minute, String signal, String series) {
    return all().stream()
        .filter(
            r ->
                r.minute().equals(minute) && r.signal().equals(signal) && r.series().equals(series))
        .mapToLong(ConsoleMinute::reading)
        .sum();
  }

  @Test
  void countersAddIntoTheirRow_newRowsAreInserted() {
    minutes.write(List.of(row(T0, "reconciliation", "CAPTURED", 2)), List.of());
    minutes.write(
        List.of(row(T0, "reconciliation", "CAPTURED", 3), row(T0, "gateway_errors", "charge", 1)),
        List.of());

    assertThat(reading(T0, "reconciliation", "CAPTURED")).isEqualTo(5);
    assertThat(reading(T0, "gateway_errors", "charge")).isEqualTo(1);
    assertThat(all()).hasSize(2);
  }

  @Test
  void gaugesKeepTheLargestReading_neverTheSum() {
    minutes.write(List.of(), List.of(row(T0, "stuck_rows", "payments.charge", 3)));
    minutes.write(List.of(), List.of(row(T0, "stuck_rows", "payments.charge", 5)));
    minutes.write(List.of(), List.of(row(T0, "stuck_rows", "payments.charge", 2)));

    assertThat(reading(T0, "stuck_rows", "payments.charge")).isEqualTo(5);
  }

  @Test
  void twoWritersAddingIntoTheSameMinute_giveTheSum() throws Exception {
    // Two nodes, each with its own store over the same database, write the same new rows at once,
    // many times over: every count lands, none twice.
    int rounds = 20;
    ExecutorService nodes = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < rounds; round++) {
        Instant minute = T0.plus(Duration.ofMinutes(round));
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> writes = new ArrayList<>();
        for (long node = 1; node <= 2; node++) {
          ConsoleMinutes store = store();
          long count = node;
          writes.add(
              nodes.submit(
                  () -> {
                    start.await();
                    store.write(
                        List.of(
                            row(minute, "unknown_outcomes", "payments.charge", count),
                            row(minute, "reconciliation", "RELEASED", 10 * count)),
                        List.of(row(minute, "stuck_rows", "payments.charge", 7 - count)));
                    return null;
                  }));
        }
        start.countDown();
        for (Future<?> write : writes) {
          write.get();
        }
        assertThat(reading(minute, "unknown_outcomes", "payments.charge")).isEqualTo(3);
        assertThat(reading(minute, "reconciliation", "RELEASED")).isEqualTo(30);
        assertThat(reading(minute, "stuck_rows", "payments.charge")).isEqualTo(6);
      }
    } finally {
      nodes.shutdownNow();
    }
  }

  @Test
  void cleanup_deletesRowsOlderThanTheCutoffInBatches_andKeepsTheRest() {
    Instant now = T0.plus(Duration.ofDays(3));
    Instant cutoff = now.minus(ConsoleMinuteWriter.RETENTION);
    List<ConsoleMinute> old = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      old.add(row(cutoff.minus(Duration.ofMinutes(i)), "gateway_errors", "charge", 1));
    }
    minutes.write(
        old,
        List.of(
            row(cutoff, "stuck_rows", "orders.create", 1),
            row(now.minus(Duration.ofMinutes(1)), "stuck_rows", "orders.create", 1)));

    // At most one batch of two: the next run goes on.
    assertThat(minutes.deleteBefore(cutoff, 2, 1)).isEqualTo(2);
    assertThat(all()).hasSize(5);
    // Batches of two until one comes back short: 2 + 1.
    assertThat(minutes.deleteBefore(cutoff, 2, 10)).isEqualTo(3);
    assertThat(all())
        .extracting(ConsoleMinute::minute)
        .containsExactlyInAnyOrder(cutoff, now.minus(Duration.ofMinutes(1)));
    assertThat(minutes.deleteBefore(cutoff, 2, 10)).isZero();
  }

  @Test
  void read_returnsTheMinutesOfItsRange_fromInclusiveToExclusive() {
    minutes.write(
        List.of(
            row(T0.minus(Duration.ofMinutes(1)), "gateway_errors", "charge", 1),
            row(T0, "gateway_errors", "charge", 2),
            row(T0.plus(Duration.ofMinutes(59)), "gateway_errors", "charge", 3),
            row(T0.plus(Duration.ofMinutes(60)), "gateway_errors", "charge", 4)),
        List.of());

    assertThat(minutes.read(T0, T0.plus(Duration.ofHours(1))))
        .extracting(ConsoleMinute::minute, ConsoleMinute::reading)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(T0, 2L),
            org.assertj.core.groups.Tuple.tuple(T0.plus(Duration.ofMinutes(59)), 3L));
  }

  @Test
  void aFailedWriteChangesNothing_soTheWriterCanRepeatItWhole() throws SQLException {
    minutes.write(List.of(row(T0, "gateway_errors", "charge", 1)), List.of());
    // The table refuses the second row (written after the first, in key order): the whole write
    // goes, the first row's addition too.
    execute(
        "ALTER TABLE console_minute ADD CONSTRAINT ck_test_refused CHECK (series <> 'refused')");
    try {
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () ->
                  minutes.write(
                      List.of(
                          row(T0, "gateway_errors", "charge", 5),
                          row(T0, "gateway_errors", "refused", 1)),
                      List.of()))
          .isInstanceOf(IllegalStateException.class);
    } finally {
      execute("ALTER TABLE console_minute DROP CONSTRAINT ck_test_refused");
    }

    assertThat(reading(T0, "gateway_errors", "charge")).isEqualTo(1);
  }

  @Test
  void theWriter_keepsCountsThroughAFailedMinute_andWritesThemWithTheNext() throws SQLException {
    OperationsTimeline timeline = new OperationsTimeline();
    Instant during = T0.plusSeconds(20);
    timeline.useClock(java.time.Clock.fixed(during, java.time.ZoneOffset.UTC));
    timeline.onGatewayError(new com.banhang.shop.payments.api.GatewayCallFailed("charge", true));
    timeline.onGatewayError(new com.banhang.shop.payments.api.GatewayCallFailed("charge", true));

    ConsoleMinuteWriter writer = new ConsoleMinuteWriter();
    writer.timeline = timeline;
    writer.keys = org.mockito.Mockito.mock(com.banhang.idempotency.IdempotencyKeys.class);
    org.mockito.Mockito.when(writer.keys.statistics())
        .thenReturn(
            new com.banhang.idempotency.KeyStatistics(
                T0.plusSeconds(65), List.of(), List.of(), java.util.Map.of()));
    writer.minutes = new ConsoleMinutes();
    writer.minutes.dataSource = unreachable();
    writer.useClock(java.time.Clock.fixed(T0.plusSeconds(65), java.time.ZoneOffset.UTC));

    writer.writeMinute(); // the database is away: nothing is thrown, nothing is lost

    timeline.useClock(java.time.Clock.fixed(T0.plusSeconds(70), java.time.ZoneOffset.UTC));
    timeline.onGatewayError(new com.banhang.shop.payments.api.GatewayCallFailed("charge", true));
    writer.minutes = minutes;
    writer.useClock(java.time.Clock.fixed(T0.plusSeconds(125), java.time.ZoneOffset.UTC));
    writer.writeMinute();

    assertThat(reading(T0, "gateway_errors", "charge")).isEqualTo(2);
    assertThat(reading(T0.plusSeconds(60), "gateway_errors", "charge")).isEqualTo(1);
    // The gauges of the minute that just ended, for every known operation.
    assertThat(reading(T0.plusSeconds(60), "stuck_rows", "payments.charge")).isZero();
    assertThat(all())
        .filteredOn(r -> r.signal().equals("oldest_age"))
        .extracting(ConsoleMinute::series)
        .containsExactlyInAnyOrder("orders.create", "payments.charge");
    assertThat(timeline.drainBefore(T0.plus(Duration.ofHours(1)))).isEmpty();
  }

  /** A database that cannot be reached. */
  private static DataSource unreachable() throws SQLException {
    DataSource away = org.mockito.Mockito.mock(DataSource.class);
    org.mockito.Mockito.when(away.getConnection())
        .thenThrow(new SQLException("connection refused", "08001"));
    return away;
  }
}
