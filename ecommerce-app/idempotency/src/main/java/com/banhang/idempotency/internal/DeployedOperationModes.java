package com.banhang.idempotency.internal;

import com.banhang.idempotency.OperationModes;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;

/**
 * The operations' modes as the library acts on them: {@code
 * idempotency.operations.<operation>.mode} per operation as an {@link OperationMode}, and {@value
 * OperationModes#ACKNOWLEDGED}. The properties are read by the public {@link OperationModes} (which
 * health checks use too), so that the two never disagree; what is here is what only the library
 * does with them: registering the operations it deploys, and saying at SEVERE which ones are not
 * enforced. An operation is known once its resource was seen at deployment ({@link
 * OperationModeCheck}, {@link IdempotencyFeature}) or once its mode is set.
 */
public final class DeployedOperationModes {

  public static final String ACKNOWLEDGED = OperationModes.ACKNOWLEDGED;

  private static final Logger LOG = Logger.getLogger(DeployedOperationModes.class.getName());

  /** The operations whose mode was already announced, so that each is logged once. */
  private static final Set<String> ANNOUNCED = ConcurrentHashMap.newKeySet();

  private DeployedOperationModes() {}

  /** The name of the mode property of {@code operation}. */
  public static String property(String operation) {
    return OperationModes.property(operation);
  }

  /** Remembers an operation of an {@code @Idempotent} method, so that its mode is reported. */
  static void register(String operation) {
    OperationModes.register(operation);
  }

  /**
   * The mode of {@code operation}; {@link OperationMode#ENFORCED} when unset.
   *
   * @throws IllegalStateException when the value is not a mode
   */
  public static OperationMode mode(Config config, String operation) {
    return OperationMode.of(OperationModes.mode(config, operation));
  }

  /**
   * The operations whose mode is not {@link OperationMode#ENFORCED}, by operation name.
   *
   * @throws IllegalStateException when a set value is not a mode
   */
  public static SortedMap<String, OperationMode> notEnforced(Config config) {
    SortedMap<String, OperationMode> modes = new TreeMap<>();
    OperationModes.notEnforced(config)
        .forEach((operation, mode) -> modes.put(operation, OperationMode.of(mode)));
    return modes;
  }

  /** {@value #ACKNOWLEDGED}: false unless set to true. */
  public static boolean acknowledged(Config config) {
    return OperationModes.acknowledged(config);
  }

  /**
   * Logs at SEVERE, once per operation, every operation that is not enforced.
   *
   * @throws IllegalStateException when a set value is not a mode
   */
  static void announce(Config config) {
    SortedMap<String, OperationMode> notEnforced = notEnforced(config);
    boolean acknowledged = acknowledged(config);
    notEnforced.forEach((operation, mode) -> announce(operation, mode, acknowledged));
  }

  /** Logs at SEVERE that {@code operation} is not enforced, unless it was said already. */
  static void announce(String operation, OperationMode mode, boolean acknowledged) {
    if (mode != OperationMode.ENFORCED && ANNOUNCED.add(operation)) {
      LOG.severe(warning(operation, mode, acknowledged));
    }
  }

  /**
   * The start-up line of an operation that is not enforced. Its wording, "comparison-only switch"
   * included, is published (docs/configuration.md) and stays as it is.
   */
  static String warning(String operation, OperationMode mode, boolean acknowledged) {
    String effect =
        mode == OperationMode.OFF
            ? "the key is ignored and the method runs on every request"
            : "a request without an Idempotency-Key runs the method unprotected";
    return "Idempotency-Keys no longer protect operation "
        + operation
        + ": "
        + property(operation)
        + "="
        + mode.configValue()
        + " ("
        + effect
        + "). This comparison-only switch is for comparison runs only, never for production; "
        + (acknowledged ? "acknowledged" : "NOT acknowledged")
        + " ("
        + ACKNOWLEDGED
        + "="
        + acknowledged
        + ").";
  }
}
