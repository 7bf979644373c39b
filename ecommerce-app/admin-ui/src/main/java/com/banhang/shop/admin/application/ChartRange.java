package com.banhang.shop.admin.application;

import java.time.Duration;

/** How far back the Overview's charts look, and the bucket of minutes each point stands for. */
public enum ChartRange {
  LAST_HOUR("1h", "1 h", Duration.ofHours(1), Duration.ofMinutes(1)),
  LAST_6_HOURS("6h", "6 h", Duration.ofHours(6), Duration.ofMinutes(5)),
  LAST_24_HOURS("24h", "24 h", Duration.ofHours(24), Duration.ofMinutes(15));

  private final String id;
  private final String label;
  private final Duration window;
  private final Duration bucket;

  ChartRange(String id, String label, Duration window, Duration bucket) {
    this.id = id;
    this.label = label;
    this.window = window;
    this.bucket = bucket;
  }

  /** Short name for element ids: {@code 1h}, {@code 6h}, {@code 24h}. */
  public String id() {
    return id;
  }

  public String label() {
    return label;
  }

  public Duration window() {
    return window;
  }

  public Duration bucket() {
    return bucket;
  }

  /** Points per chart: 60, 72 or 96, few enough to draw and to hover one by one. */
  public int points() {
    return (int) (window.toMinutes() / bucket.toMinutes());
  }
}
