package com.banhang.conformance;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * What the kit is pointed at. Every setting has one name, used as {@code --name value} on the
 * command line, as {@code name=value} in a properties file, and as the system property {@code
 * kit.name} for the JUnit suite form.
 *
 * @param baseUrl scheme, host, port and an optional path prefix, for example {@code
 *     http://localhost:9080}
 * @param endpoint the keyed endpoint, for example {@code /api/v1/orders}; may contain {@code
 *     {{id}}} when a setup endpoint is configured
 * @param bodyTemplate the JSON body of one intent; {@code {{unique}}} is replaced by a fresh value
 *     for every intent, {@code {{id}}} by the setup answer's {@code id}
 * @param tenantA the caller whose keys are checked
 * @param tenantB a second caller, for the rule that keys are per caller; empty if none
 * @param setupEndpoint called before each intent (with its own key) when the endpoint needs a
 *     resource of its own, for example an order to pay; empty if none
 * @param setupBodyTemplate the body of the setup call, with the same placeholders
 * @param method the keyed endpoint's method (POST, or PATCH)
 * @param concurrency how many identical requests the concurrency rule releases at once
 * @param maxKeyLength the longest key the API accepts (RFC 8941 sets no bound; docs/contract.md
 *     section 3 says 255)
 * @param hugeBodyBytes the size of the over-the-limit body
 * @param nestingDepth how deep the deeply nested body nests arrays
 * @param timeout for one request
 * @param expectProblemSlugs also require each problem's {@code type} to end with the slug of
 *     docs/problems.md ({@code #idempotency-key-missing} and so on); off for an API with types of
 *     its own
 */
public record KitConfig(
    URI baseUrl,
    String endpoint,
    String bodyTemplate,
    Tenant tenantA,
    Optional<Tenant> tenantB,
    Optional<String> setupEndpoint,
    Optional<String> setupBodyTemplate,
    String method,
    int concurrency,
    int maxKeyLength,
    int hugeBodyBytes,
    int nestingDepth,
    Duration timeout,
    boolean expectProblemSlugs) {

  /** The settings, in the order the usage text lists them: name, and what it is. */
  public static final Map<String, String> SETTINGS = settings();

  private static Map<String, String> settings() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("base-url", "the API's base URL, e.g. http://localhost:9080 (required)");
    s.put("endpoint", "the keyed endpoint, e.g. /api/v1/orders or /api/v1/orders/{{id}}/payments");
    s.put("body-template", "one intent's JSON body; {{unique}} becomes a fresh value per intent");
    s.put("tenant-a", "user:password of the caller whose keys are checked (required)");
    s.put("tenant-b", "user:password of a second caller (optional)");
    s.put("setup-endpoint", "POSTed before each intent; its answer's id fills {{id}} (optional)");
    s.put("setup-body-template", "the setup call's JSON body");
    s.put("method", "the keyed endpoint's method (default POST)");
    s.put("concurrency", "identical requests released at once (default 10)");
    s.put("max-key-length", "the longest key the API accepts (default 255)");
    s.put("huge-body-bytes", "size of the over-the-limit body (default 1048576)");
    s.put("nesting-depth", "depth of the deeply nested body (default 10000)");
    s.put("timeout-seconds", "for one request (default 30)");
    s.put("expect-problem-slugs", "true: problem types must end with docs/problems.md's slugs");
    s.put("config", "a properties file with any of these settings (command line wins)");
    return java.util.Collections.unmodifiableMap(s);
  }

  public KitConfig {
    if (!"http".equals(baseUrl.getScheme()) && !"https".equals(baseUrl.getScheme())) {
      throw new IllegalArgumentException("base-url must be http or https: " + baseUrl);
    }
    if (!endpoint.startsWith("/")) {
      throw new IllegalArgumentException("endpoint must start with /: " + endpoint);
    }
    if (endpoint.contains("{{id}}") && setupEndpoint.isEmpty()) {
      throw new IllegalArgumentException("endpoint has {{id}} but no setup-endpoint fills it");
    }
    if (setupEndpoint.isPresent() && setupBodyTemplate.isEmpty()) {
      throw new IllegalArgumentException("setup-endpoint needs setup-body-template");
    }
    if (concurrency < 2) {
      throw new IllegalArgumentException("concurrency must be at least 2");
    }
    if (maxKeyLength < 1) {
      throw new IllegalArgumentException("max-key-length must be at least 1");
    }
  }

  /**
   * Reads the settings from {@code name=value} pairs, as the three forms give them.
   *
   * @throws IllegalArgumentException naming a setting that is missing, unknown or wrong
   */
  public static KitConfig from(Map<String, String> values) {
    for (String name : values.keySet()) {
      if (!SETTINGS.containsKey(name)) {
        throw new IllegalArgumentException("unknown setting: " + name);
      }
    }
    return new KitConfig(
        URI.create(required(values, "base-url")),
        required(values, "endpoint"),
        required(values, "body-template"),
        Tenant.parse(required(values, "tenant-a")),
        optional(values, "tenant-b").map(Tenant::parse),
        optional(values, "setup-endpoint"),
        optional(values, "setup-body-template"),
        optional(values, "method").orElse("POST").toUpperCase(java.util.Locale.ROOT),
        integer(values, "concurrency", 10),
        integer(values, "max-key-length", 255),
        integer(values, "huge-body-bytes", 1_048_576),
        integer(values, "nesting-depth", 10_000),
        Duration.ofSeconds(integer(values, "timeout-seconds", 30)),
        Boolean.parseBoolean(optional(values, "expect-problem-slugs").orElse("false")));
  }

  /**
   * Command-line arguments, {@code --name value} or {@code --name=value}; {@code --config FILE}
   * reads a properties file first, and the command line overrides it.
   */
  public static KitConfig fromArgs(List<String> args) throws IOException {
    Map<String, String> cli = new LinkedHashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("expected --name value, got: " + arg);
      }
      String name = arg.substring(2);
      String value;
      int equals = name.indexOf('=');
      if (equals >= 0) {
        value = name.substring(equals + 1);
        name = name.substring(0, equals);
      } else if (i + 1 < args.size()) {
        value = args.get(++i);
      } else {
        throw new IllegalArgumentException("--" + name + " needs a value");
      }
      cli.put(name, value);
    }
    return fromLayers(cli);
  }

  /** The JUnit suite form's settings: system properties {@code kit.<name>}. */
  public static KitConfig fromSystemProperties() throws IOException {
    Map<String, String> values = new LinkedHashMap<>();
    for (String name : SETTINGS.keySet()) {
      String value = System.getProperty("kit." + name);
      if (value != null && !value.isBlank()) {
        values.put(name, value);
      }
    }
    return fromLayers(values);
  }

  /** Whether the JUnit suite form was given anything to check. */
  public static boolean configuredBySystemProperties() {
    return System.getProperty("kit.base-url") != null || System.getProperty("kit.config") != null;
  }

  private static KitConfig fromLayers(Map<String, String> top) throws IOException {
    Map<String, String> values = new LinkedHashMap<>();
    String file = top.get("config");
    if (file != null) {
      values.putAll(readProperties(Path.of(file)));
    }
    values.putAll(top);
    values.remove("config");
    return from(values);
  }

  static Map<String, String> readProperties(Path file) throws IOException {
    Properties properties = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(in);
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (String name : properties.stringPropertyNames()) {
      values.put(name, properties.getProperty(name).trim());
    }
    return values;
  }

  private static String required(Map<String, String> values, String name) {
    return optional(values, name)
        .orElseThrow(() -> new IllegalArgumentException("missing setting: " + name));
  }

  private static Optional<String> optional(Map<String, String> values, String name) {
    String value = values.get(name);
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
  }

  private static int integer(Map<String, String> values, String name, int fallback) {
    String value = values.get(name);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a whole number: " + value);
    }
  }
}
