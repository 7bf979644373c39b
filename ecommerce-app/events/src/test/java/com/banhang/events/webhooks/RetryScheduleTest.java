package com.banhang.events.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;

/** The retry schedule and the subscriber's {@code Retry-After}. */
class RetryScheduleTest {

  @Test
  void theStandardScheduleIsTheSpecifications_eightAttemptsThenParked() {
    RetrySchedule schedule = RetrySchedule.parse(RetrySchedule.STANDARD);

    assertThat(schedule.attempts()).isEqualTo(8);
    assertThat(schedule.first()).isZero();
    assertThat(schedule.after(1)).hasValue(Duration.ofSeconds(5));
    assertThat(schedule.after(2)).hasValue(Duration.ofMinutes(5));
    assertThat(schedule.after(3)).hasValue(Duration.ofMinutes(30));
    assertThat(schedule.after(4)).hasValue(Duration.ofHours(2));
    assertThat(schedule.after(5)).hasValue(Duration.ofHours(5));
    assertThat(schedule.after(6)).hasValue(Duration.ofHours(10));
    assertThat(schedule.after(7)).hasValue(Duration.ofHours(10));
    assertThat(schedule.after(8)).isEmpty();
  }

  @Test
  void aScheduleIsAListOfIsoDurations_andAnUnusableOneIsRefused() {
    RetrySchedule schedule = RetrySchedule.parse(" PT0S, PT0.005S ,PT1M");

    assertThat(schedule.attempts()).isEqualTo(3);
    assertThat(schedule.after(1)).hasValue(Duration.ofMillis(5));
    assertThat(schedule.after(3)).isEmpty();
    assertThatThrownBy(() -> RetrySchedule.parse("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RetrySchedule.parse("PT0S,5 minutes"))
        .hasMessageContaining("5 minutes");
    assertThatThrownBy(() -> RetrySchedule.parse("PT-1S")).hasMessageContaining("negative");
  }

  @Test
  void retryAfterIsSecondsOrAnHttpDate_cappedAtTenHours() {
    Instant now = Instant.parse("2026-12-06T12:00:00Z");
    String inTwoMinutes =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(
            ZonedDateTime.ofInstant(now.plusSeconds(120), ZoneOffset.UTC));

    assertThat(RetryAfter.parse("30", now)).hasValue(Duration.ofSeconds(30));
    assertThat(RetryAfter.parse(" 0 ", now)).hasValue(Duration.ZERO);
    assertThat(RetryAfter.parse(inTwoMinutes, now)).hasValue(Duration.ofMinutes(2));
    assertThat(RetryAfter.parse("Sat, 05 Dec 2026 12:00:00 GMT", now)).hasValue(Duration.ZERO);
    assertThat(RetryAfter.parse("86400", now)).hasValue(Duration.ofHours(10));
    assertThat(RetryAfter.parse("99999999999999999999", now)).hasValue(Duration.ofHours(10));
    assertThat(RetryAfter.parse("soon", now)).isEmpty();
    assertThat(RetryAfter.parse("-5", now)).isEmpty();
    assertThat(RetryAfter.parse(null, now)).isEmpty();
  }
}
