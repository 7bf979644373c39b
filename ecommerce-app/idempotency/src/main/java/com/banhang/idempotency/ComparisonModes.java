package com.banhang.idempotency;

import com.banhang.idempotency.internal.OperationModes;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.microprofile.config.Config;

/**
 * Read-only answers about the comparison-only switch (docs/configuration.md, "Comparison-only
 * switch"): which operations run without the full idempotency layer, and whether that was
 * acknowledged. For health checks and operator views; production never turns the switch.
 *
 * <ul>
 *   <li>{@code idempotency.operations.<operation>.mode}: {@code enforced} (the default), {@code
 *       optional} (a request without a key runs unprotected) or {@code off} (keys are ignored).
 *   <li>{@value #ACKNOWLEDGED}: true when whoever set a mode other than {@code enforced} meant it.
 * </ul>
 */
public final class ComparisonModes {

  public static final String ACKNOWLEDGED = OperationModes.ACKNOWLEDGED;

  private ComparisonModes() {}

  /**
   * The operations whose mode is not {@code enforced}, by operation name, with their mode as
   * configured in lower case ({@code optional} or {@code off}); empty when every operation is
   * enforced. An operation counts once its resource was deployed or once its mode is set.
   *
   * @throws IllegalStateException when a mode property holds a value that is no mode
   */
  public static Map<String, String> notEnforced(Config config) {
    Map<String, String> modes = new TreeMap<>();
    OperationModes.notEnforced(config).forEach((op, mode) -> modes.put(op, mode.configValue()));
    return Collections.unmodifiableMap(modes);
  }

  /** Whether {@value #ACKNOWLEDGED} is true; false when unset. */
  public static boolean acknowledged(Config config) {
    return OperationModes.acknowledged(config);
  }
}
