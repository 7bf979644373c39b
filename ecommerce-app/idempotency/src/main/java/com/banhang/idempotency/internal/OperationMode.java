package com.banhang.idempotency.internal;

import com.banhang.idempotency.OperationModes;
import java.util.Locale;

/**
 * How much of the idempotency layer one operation gets, from {@code
 * idempotency.operations.<operation>.mode} ({@link DeployedOperationModes}). Only {@link #ENFORCED}
 * is for production; the others exist for side-by-side measurements (docs/configuration.md,
 * "Operation modes").
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
   * The mode of a value {@link OperationModes#mode} read and checked: {@code enforced}, {@code
   * optional} or {@code off}.
   */
  static OperationMode of(String configValue) {
    return valueOf(configValue.toUpperCase(Locale.ROOT));
  }
}
