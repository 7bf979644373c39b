package com.banhang.shop.admin.ui;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** How the console writes times, ages and rates: UTC everywhere, as in the logs and database. */
final class Formats {

  static final String NONE = "—";
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private Formats() {}

  static String instant(Instant instant) {
    return instant == null ? NONE : TIME.format(instant);
  }

  static String age(Duration duration) {
    if (duration == null) {
      return NONE;
    }
    long seconds = Math.max(0, duration.getSeconds());
    if (seconds < 60) {
      return seconds + " s";
    }
    if (seconds < 3600) {
      return (seconds / 60) + " min " + (seconds % 60) + " s";
    }
    if (seconds < 86400) {
      return (seconds / 3600) + " h " + ((seconds % 3600) / 60) + " min";
    }
    return (seconds / 86400) + " d " + ((seconds % 86400) / 3600) + " h";
  }

  static String ageSince(Instant instant, Instant now) {
    return instant == null ? NONE : age(Duration.between(instant, now));
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
