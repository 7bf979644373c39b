package com.banhang.idempotency.internal;

import java.util.Collections;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;

/**
 * The comparison-only switch: {@code idempotency.operations.<operation>.mode} per operation ({@link
 * OperationMode}), and {@value #ACKNOWLEDGED}. An operation is known once its resource was seen at
 * deployment ({@link ComparisonModeCheck}, {@link IdempotencyFeature}) or once its mode is set; a
 * mode set through an environment variable ({@code IDEMPOTENCY_OPERATIONS_ORDERS_CREATE_MODE}) is
 * matched to the known operation it names.
 */
public final class OperationModes {

  public static final String ACKNOWLEDGED = "idempotency.comparison-only.acknowledged";

  private static final String PREFIX = "idempotency.operations.";
  private static final String SUFFIX = ".mode";
  private static final String ENV_PREFIX = "IDEMPOTENCY_OPERATIONS_";
  private static final String ENV_SUFFIX = "_MODE";

  private static final Logger LOG = Logger.getLogger(OperationModes.class.getName());

  /** The operations of the {@code @Idempotent} methods seen so far. */
  private static final Set<String> REGISTERED = ConcurrentHashMap.newKeySet();

  /** The operations whose mode was already announced, so that each is logged once. */
  private static final Set<String> ANNOUNCED = ConcurrentHashMap.newKeySet();

  private OperationModes() {}

  /** The name of the mode property of {@code operation}. */
  public static String property(String operation) {
    return PREFIX + operation + SUFFIX;
  }

  /** Remembers an operation of an {@code @Idempotent} method, so that its mode is reported. */
  static void register(String operation) {
    if (!operation.isBlank() && !operation.equals("*")) {
      REGISTERED.add(operation);
    }
  }

  /**
   * The mode of {@code operation}; {@link OperationMode#ENFORCED} when unset.
   *
   * @throws IllegalStateException when the value is not a mode
   */
  public static OperationMode mode(Config config, String operation) {
    String property = property(operation);
    Optional<String> value = config.getOptionalValue(property, String.class);
    return value.map(String::strip).filter(v -> !v.isEmpty()).isEmpty()
        ? OperationMode.ENFORCED
        : OperationMode.parse(property, value.get());
  }

  /**
   * The mode of every known operation, by operation name.
   *
   * @throws IllegalStateException when a set value is not a mode
   */
  public static SortedMap<String, OperationMode> modes(Config config) {
    SortedMap<String, OperationMode> modes = new TreeMap<>();
    for (String operation : knownOperations(config)) {
      modes.put(operation, mode(config, operation));
    }
    return modes;
  }

  /**
   * The operations whose mode is not {@link OperationMode#ENFORCED}, by operation name.
   *
   * @throws IllegalStateException when a set value is not a mode
   */
  public static SortedMap<String, OperationMode> notEnforced(Config config) {
    SortedMap<String, OperationMode> modes = modes(config);
    modes.values().removeIf(mode -> mode == OperationMode.ENFORCED);
    return modes;
  }

  /** {@value #ACKNOWLEDGED}: false unless set to true. */
  public static boolean acknowledged(Config config) {
    return config.getOptionalValue(ACKNOWLEDGED, Boolean.class).orElse(false);
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

  /** The start-up line of an operation that is not enforced. */
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

  /**
   * The registered operations and those that have a mode property: {@code
   * idempotency.operations.<operation>.mode}, or its environment variable form (one that matches no
   * registered operation is read back as lower case with dots, which maps to the same variable).
   */
  private static SortedSet<String> knownOperations(Config config) {
    SortedSet<String> operations = new TreeSet<>(REGISTERED);
    Iterable<String> names = config.getPropertyNames();
    for (String name : names) {
      if (name.startsWith(PREFIX)
          && name.endsWith(SUFFIX)
          && name.length() > PREFIX.length() + SUFFIX.length()) {
        operations.add(name.substring(PREFIX.length(), name.length() - SUFFIX.length()));
      }
    }
    Set<String> variables = new TreeSet<>();
    for (String operation : operations) {
      variables.add(environmentName(property(operation)));
    }
    for (String name : names) {
      if (name.startsWith(ENV_PREFIX)
          && name.endsWith(ENV_SUFFIX)
          && name.length() > ENV_PREFIX.length() + ENV_SUFFIX.length()
          && !variables.contains(name)) {
        operations.add(
            name.substring(ENV_PREFIX.length(), name.length() - ENV_SUFFIX.length())
                .toLowerCase(Locale.ROOT)
                .replace('_', '.'));
      }
    }
    return Collections.unmodifiableSortedSet(operations);
  }

  /** MicroProfile Config's environment variable for a property: non-alphanumerics to _, upper. */
  static String environmentName(String property) {
    return property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
  }
}
