package com.banhang.idempotency;

import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.Config;

/**
 * Read-only answers about the operations' modes (docs/configuration.md, "Operation modes"): which
 * operations run in a comparison-only mode, without the full idempotency layer, and whether that
 * was acknowledged. For health checks and operator views; production never sets such a mode.
 *
 * <ul>
 *   <li>{@code idempotency.operations.<operation>.mode}: {@code enforced} (the default), {@code
 *       optional} (a request without a key runs unprotected) or {@code off} (keys are ignored).
 *   <li>{@value #ACKNOWLEDGED}: true when whoever set a mode other than {@code enforced} meant it.
 * </ul>
 *
 * <p>The reading of these properties lives here, and the library's filter takes its mode from it,
 * so that what a health check reports and what a request gets can never be read two ways.
 */
public final class OperationModes {

  public static final String ACKNOWLEDGED = "idempotency.comparison-only.acknowledged";

  /** The modes, as written in the configuration; the first is the default. */
  private static final List<String> MODES = List.of("enforced", "optional", "off");

  private static final String PREFIX = "idempotency.operations.";
  private static final String SUFFIX = ".mode";
  private static final String ENV_PREFIX = "IDEMPOTENCY_OPERATIONS_";
  private static final String ENV_SUFFIX = "_MODE";

  /** The operations of the {@code @Idempotent} methods seen so far. */
  private static final Set<String> REGISTERED = ConcurrentHashMap.newKeySet();

  private OperationModes() {}

  /**
   * The operations whose mode is not {@code enforced}, by operation name, with their mode as
   * configured in lower case ({@code optional} or {@code off}); empty when every operation is
   * enforced. An operation counts once its resource was deployed or once its mode is set.
   *
   * @throws IllegalStateException when a mode property holds a value that is no mode
   */
  public static Map<String, String> notEnforced(Config config) {
    Map<String, String> modes = new TreeMap<>();
    for (String operation : knownOperations(config)) {
      String mode = mode(config, operation);
      if (!mode.equals(MODES.get(0))) {
        modes.put(operation, mode);
      }
    }
    return Collections.unmodifiableMap(modes);
  }

  /** Whether {@value #ACKNOWLEDGED} is true; false when unset. */
  public static boolean acknowledged(Config config) {
    return config.getOptionalValue(ACKNOWLEDGED, Boolean.class).orElse(false);
  }

  /**
   * The mode of {@code operation}: {@code enforced}, {@code optional} or {@code off}, as configured
   * (case and surrounding blanks ignored); {@code enforced} when unset or blank.
   *
   * @throws IllegalStateException naming the property and the allowed values when the value is none
   *     of them
   */
  public static String mode(Config config, String operation) {
    String property = property(operation);
    Optional<String> value =
        config.getOptionalValue(property, String.class).filter(v -> !v.strip().isEmpty());
    if (value.isEmpty()) {
      return MODES.get(0);
    }
    String wanted = value.get().strip().toLowerCase(Locale.ROOT);
    if (!MODES.contains(wanted)) {
      throw new IllegalStateException(
          property
              + " is '"
              + value.get()
              + "'; allowed values: "
              + String.join(", ", MODES)
              + " (docs/configuration.md, \"Operation modes\")");
    }
    return wanted;
  }

  /** The name of the mode property of {@code operation}. */
  public static String property(String operation) {
    return PREFIX + operation + SUFFIX;
  }

  /**
   * Makes {@code operation} known, so that a mode set through an environment variable ({@code
   * IDEMPOTENCY_OPERATIONS_ORDERS_CREATE_MODE}) is reported under its name even where the
   * variable's spelling loses it (a dash or an underscore in the name). The library calls it for
   * every {@code @Idempotent} method it deploys; an application has no reason to.
   */
  public static void register(String operation) {
    if (!operation.isBlank() && !operation.equals("*")) {
      REGISTERED.add(operation);
    }
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
  private static String environmentName(String property) {
    return property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
  }
}
