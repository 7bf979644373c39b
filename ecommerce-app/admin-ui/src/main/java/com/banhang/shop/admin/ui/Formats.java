package com.banhang.shop.admin.ui;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * How the console writes times, ages, money and rates. Times are in the operator's time zone (the
 * browser's, read once per session by {@link MainLayout}), with the zone named; UTC, the logs' and
 * the database's, is on hover ({@link #utc}). Without a browser zone, UTC.
 */
final class Formats {

  static final String NONE = "—";
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter LOCAL_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss zzz", Locale.ROOT);

  /** The session attribute that holds the operator's {@link java.time.ZoneId}. */
  static final String ZONE_ATTRIBUTE = "banhang.operator-zone";

  private Formats() {}

  /** In the operator's time zone, named. */
  static String instant(Instant instant) {
    if (instant == null) {
      return NONE;
    }
    java.time.ZoneId zone = zone();
    return zone.equals(ZoneOffset.UTC)
        ? TIME.format(instant)
        : LOCAL_TIME.withZone(zone).format(instant);
  }

  /** In UTC, as the logs and the database write it: what a time shows on hover. */
  static String utc(Instant instant) {
    return instant == null ? NONE : TIME.format(instant);
  }

  /** A time as a form value, in the operator's zone, with UTC on hover. */
  static com.vaadin.flow.component.html.Span time(Instant instant) {
    com.vaadin.flow.component.html.Span span = value(instant(instant));
    if (instant != null) {
      span.setTitle(utc(instant));
    }
    return span;
  }

  /** A date and time the operator typed, read in the operator's zone; null stays null. */
  static Instant fromOperatorsZone(java.time.LocalDateTime typed) {
    return typed == null ? null : typed.atZone(zone()).toInstant();
  }

  private static java.time.ZoneId zone() {
    com.vaadin.flow.server.VaadinSession session =
        com.vaadin.flow.server.VaadinSession.getCurrent();
    Object zone = session == null ? null : session.getAttribute(ZONE_ATTRIBUTE);
    return zone instanceof java.time.ZoneId id ? id : ZoneOffset.UTC;
  }

  static String age(Duration duration) {
    if (duration == null) {
      return NONE;
    }
    long seconds = Math.max(0, duration.getSeconds());
    if (seconds < 60) {
      return Texts.t("format.age.seconds", seconds);
    }
    if (seconds < 3600) {
      return Texts.t("format.age.minutes", seconds / 60, seconds % 60);
    }
    if (seconds < 86400) {
      return Texts.t("format.age.hours", seconds / 3600, (seconds % 3600) / 60);
    }
    return Texts.t("format.age.days", seconds / 86400, (seconds % 86400) / 3600);
  }

  static String ageSince(Instant instant, Instant now) {
    return instant == null ? NONE : age(Duration.between(instant, now));
  }

  /**
   * An amount kept in the currency's minor unit, written in its major unit with the currency's own
   * number of decimals: 1250 USD is "12.50 USD", 1250000 VND (no minor unit) is "1250000 VND". An
   * unknown code is written as stored, with "minor units" said.
   */
  static String money(long minorUnits, String currency) {
    int digits;
    try {
      digits = java.util.Currency.getInstance(currency).getDefaultFractionDigits();
    } catch (IllegalArgumentException | NullPointerException e) {
      return Texts.t("format.money.unknown-currency", minorUnits, currency);
    }
    if (digits <= 0) {
      return minorUnits + " " + currency;
    }
    return java.math.BigDecimal.valueOf(minorUnits, digits).toPlainString() + " " + currency;
  }

  static String rate(double rate) {
    return String.format(Locale.ROOT, "%.1f%%", rate * 100);
  }

  static String text(Object value) {
    return value == null ? NONE : value.toString();
  }

  /**
   * A value of a detail form, bold; long unbroken values (fingerprints, gateway keys) wrap instead
   * of running into the next column.
   */
  static com.vaadin.flow.component.html.Span value(String value) {
    com.vaadin.flow.component.html.Span span =
        new com.vaadin.flow.component.html.Span(value == null ? NONE : value);
    span.addClassNames(com.vaadin.flow.theme.lumo.LumoUtility.FontWeight.SEMIBOLD);
    span.getStyle().set("overflow-wrap", "anywhere");
    return span;
  }
}
