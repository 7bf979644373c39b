package com.banhang.shop.admin.application;

/**
 * What the Overview charts, one chart each: the signals an operator watches at night. Counters are
 * added up over nodes and minutes; gauges are readings of the shared key table, the same on every
 * node, so the largest reading of a minute (or of a bucket of minutes) stands for it. Each chart's
 * title and unit are texts of the console's bundle (SvgChart).
 */
public enum ConsoleSignal {
  STUCK_ROWS("stuck_rows", true),
  OLDEST_AGE("oldest_age", true),
  UNKNOWN_OUTCOMES("unknown_outcomes", false),
  GATEWAY_ERRORS("gateway_errors", false),
  RECONCILIATION("reconciliation", false);

  private final String id;
  private final boolean gauge;

  ConsoleSignal(String id, boolean gauge) {
    this.id = id;
    this.gauge = gauge;
  }

  /** The name in {@code console_minute.signal_name} and in the chart's element id. */
  public String id() {
    return id;
  }

  /** A reading of the table (largest wins), not a count of events (added up). */
  public boolean gauge() {
    return gauge;
  }

  /** The signal stored under {@code id}, or null for one this version does not chart. */
  static ConsoleSignal byId(String id) {
    for (ConsoleSignal signal : values()) {
      if (signal.id.equals(id)) {
        return signal;
      }
    }
    return null;
  }
}
