package com.banhang.shop.client;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * Reads a {@code Retry-After} header (RFC 9110, section 10.2.3): delay-seconds, which the shop
 * sends, or an HTTP-date, which a proxy in front of it may send instead.
 */
final class RetryAfter {

  private RetryAfter() {}

  /**
   * The wait the header asks for, measured from {@code now} for an HTTP-date (a date already past
   * asks for no wait); empty when the header is absent or is neither form, so that a malformed
   * value never stops the retries.
   */
  static Optional<Duration> parse(String header, Instant now) {
    if (header == null) {
      return Optional.empty();
    }
    String value = header.trim();
    if (!value.isEmpty() && value.chars().allMatch(c -> c >= '0' && c <= '9')) {
      try {
        return Optional.of(Duration.ofSeconds(Long.parseLong(value)));
      } catch (NumberFormatException tooLarge) {
        // More digits than a long holds: a wait past any deadline.
        return Optional.of(Duration.ofSeconds(Long.MAX_VALUE));
      }
    }
    return httpDate(value)
        .map(date -> date.isAfter(now) ? Duration.between(now, date) : Duration.ZERO);
  }

  /**
   * An IMF-fixdate such as {@code Sun, 06 Nov 1994 08:49:37 GMT}, the form RFC 9110 requires
   * senders to use; {@link DateTimeFormatter#RFC_1123_DATE_TIME} reads it. The obsolete forms RFC
   * 9110 asks recipients to accept too (RFC 850, asctime) are not read: the shop never sends them,
   * and an unread date only means the wait falls back to the backoff.
   */
  static Optional<Instant> httpDate(String value) {
    try {
      return Optional.of(
          ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
    } catch (DateTimeParseException notADate) {
      return Optional.empty();
    }
  }
}
