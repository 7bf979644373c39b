package com.banhang.idempotency.internal;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How much of the idempotency layer one operation gets, from {@code
 * idempotency.operations.<operation>.mode} ({@link OperationModes}). Only {@link #ENFORCED} is for
 * production; the others exist for side-by-side measurements (docs/configuration.md,
 * "Comparison-only switch").
 */
public enum OperationMode {
  /** The default: the full layer, as the annotation says. */
  ENFORCED,
  /** A request without a key runs the method unprotected; a keyed request is handled as usual. */
  OPTIONAL,
  /** The layer does nothing: the key is ignored and the method runs every time. */
  OFF;

  /** The value as written in the configuration: {@code enforced}, {@code optional}, {@code off}. */
  public String configValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Reads a configured value, ignoring case and surrounding blanks.
   *
   * @throws IllegalStateException naming {@code property} and the allowed values when the value is
   *     none of them
   */
  static OperationMode parse(String property, String value) {
    String wanted = value.strip().toLowerCase(Locale.ROOT);
    for (OperationMode mode : values()) {
      if (mode.configValue().equals(wanted)) {
        return mode;
      }
    }
    throw new IllegalStateException(
        property
            + " is '"
            + value
            + "'; allowed values: "
            + Arrays.stream(values())
                .map(OperationMode::configValue)
                .collect(Collectors.joining(", "))
            + " (docs/configuration.md, \"Comparison-only switch\")");
  }
}
