package com.banhang.events.webhooks;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * A subscriber's {@code Retry-After} header: a number of seconds or an HTTP date (RFC 9110). The
 * delay is capped at {@link #MAX}: a subscriber cannot park a delivery indefinitely by asking for a
 * year.
 */
final class RetryAfter {

  /** The longest wait a subscriber can ask for, the longest step of the standard schedule. */
  static final Duration MAX = Duration.ofHours(10);

  private RetryAfter() {}

  /** The delay {@code header} asks for from {@code now}, empty when absent or unreadable. */
  static Optional<Duration> parse(String header, Instant now) {
    if (header == null || header.isBlank()) {
      return Optional.empty();
    }
    String value = header.trim();
    Duration delay;
    if (value.chars().allMatch(Character::isDigit)) {
      // More digits than a long holds still means "a very long time".
      delay = value.length() > 9 ? MAX : Duration.ofSeconds(Long.parseLong(value));
    } else {
      try {
        delay =
            Duration.between(
                now, ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
      } catch (DateTimeParseException e) {
        return Optional.empty();
      }
    }
    if (delay.isNegative()) {
      return Optional.of(Duration.ZERO);
    }
    return Optional.of(delay.compareTo(MAX) > 0 ? MAX : delay);
  }
}
