package com.banhang.shop.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RetryAfterTest {

  private static final Instant NOW = FakeClock.START;

  private static String httpDate(Instant instant) {
    return DateTimeFormatter.RFC_1123_DATE_TIME.format(instant.atOffset(ZoneOffset.UTC));
  }

  @Test
  void readsDelaySeconds() {
    assertThat(RetryAfter.parse("3", NOW)).contains(Duration.ofSeconds(3));
    assertThat(RetryAfter.parse(" 120 ", NOW)).contains(Duration.ofSeconds(120));
    assertThat(RetryAfter.parse("0", NOW)).contains(Duration.ZERO);
  }

  @Test
  void readsAnHttpDateAsTheTimeFromNow() {
    assertThat(httpDate(NOW.plusSeconds(90))).isEqualTo("Wed, 2 Dec 2026 08:01:30 GMT");
    assertThat(RetryAfter.parse("Wed, 02 Dec 2026 08:01:30 GMT", NOW))
        .contains(Duration.ofSeconds(90));
    assertThat(RetryAfter.parse(httpDate(NOW.minusSeconds(5)), NOW)).contains(Duration.ZERO);
  }

  @Test
  void aNumberLargerThanALongIsAVeryLongWaitNotAnError() {
    assertThat(RetryAfter.parse("99999999999999999999999", NOW).orElseThrow())
        .isGreaterThan(Duration.ofDays(365 * 100));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "soon", "-1", "1.5", "3 s", "Tomorrow, 2 Dec 2026"})
  void anythingElseAsksForNoParticularWait(String header) {
    assertThat(RetryAfter.parse(header, NOW)).isEmpty();
  }

  @Test
  void noHeaderAsksForNoParticularWait() {
    assertThat(RetryAfter.parse(null, NOW)).isEmpty();
  }
}
