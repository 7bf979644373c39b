package com.banhang.shop.admin.application;

/**
 * What the Overview charts, one chart each: the signals an operator watches at night. Counters are
 * added up over nodes and minutes; gauges are readings of the shared key table, the same on every
 * node, so the largest reading of a minute (or of a bucket of minutes) stands for it.
 */
public enum ConsoleSignal {
  STUCK_ROWS("stuck_rows", true, "Processing rows per operation", "rows"),
  OLDEST_AGE("oldest_age", true, "Oldest processing row's age per operation", "minutes"),
  UNKNOWN_OUTCOMES("unknown_outcomes", false, "Unknown outcomes per operation", "requests"),
  GATEWAY_ERRORS("gateway_errors", false, "Gateway errors per call", "failed calls"),
  RECONCILIATION("reconciliation", false, "Reconciliation outcomes", "keys examined");

  private final String id;
  private final boolean gauge;
  private final String title;
  private final String unit;

  ConsoleSignal(String id, boolean gauge, String title, String unit) {
    this.id = id;
    this.gauge = gauge;
    this.title = title;
    this.unit = unit;
  }

  /** The name in {@code console_minute.signal_name} and in the chart's element id. */
  public String id() {
    return id;
  }

  /** A reading of the table (largest wins), not a count of events (added up). */
  public boolean gauge() {
    return gauge;
  }

  public String title() {
    return title;
  }

  /** What the y axis counts. */
  public String unit() {
    return unit;
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
