package com.banhang.events.webhooks;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The webhooks' configuration, read once from MicroProfile Config (names below). Secrets come from
 * the deployment (environment variables such as {@code EVENTS_WEBHOOKS_CRM_SECRETS}, or a secret
 * store), never from the repository.
 *
 * <ul>
 *   <li>{@code events.webhooks.endpoints}: the subscribers' endpoint names, comma-separated
 *   <li>{@code events.webhooks.<name>.url}: where its webhooks are POSTed (https)
 *   <li>{@code events.webhooks.<name>.tenants}: the tenant ids it receives, comma-separated, or
 *       {@code *} for every tenant
 *   <li>{@code events.webhooks.<name>.secrets}: its signing secrets, comma-separated {@code
 *       whsec_<base64>}; during a rotation the old and the new, and every one signs
 *   <li>{@code events.webhooks.connect-timeout} (PT5S), {@code events.webhooks.timeout} (PT10S,
 *       until the answer's headers)
 *   <li>{@code events.webhooks.retry-schedule}: the delays before each attempt, ISO durations
 *       ({@link RetrySchedule#STANDARD})
 *   <li>{@code events.webhooks.batch-size} (20), {@code events.webhooks.lease} (PT60S)
 *   <li>{@code events.webhooks.allow-http}, {@code events.webhooks.allow-private-targets} (false):
 *       development and tests only ({@link WebhookTargets})
 *   <li>{@code events.source}: the CloudEvents {@code source} of the events sent
 * </ul>
 *
 * An endpoint whose configuration is unusable (no URL or a malformed one, no tenants, a missing or
 * malformed secret) is left out with a warning. One whose target the guard refuses is kept, with a
 * warning: its deliveries are recorded and parked with the reason, to be retried once it is fixed.
 */
public final class WebhookSettings {

  private static final Logger LOG = Logger.getLogger(WebhookSettings.class.getName());

  static final String PREFIX = "events.webhooks.";

  /** A name that is safe as a configuration key's segment and fits the tables' column. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

  private final List<WebhookEndpoint> endpoints;
  private final Optional<String> source;
  private final Duration connectTimeout;
  private final Duration timeout;
  private final RetrySchedule schedule;
  private final int batchSize;
  private final Duration lease;
  private final WebhookTargets.Policy policy;

  WebhookSettings(
      List<WebhookEndpoint> endpoints,
      Optional<String> source,
      Duration connectTimeout,
      Duration timeout,
      RetrySchedule schedule,
      int batchSize,
      Duration lease,
      WebhookTargets.Policy policy) {
    this.endpoints = List.copyOf(endpoints);
    this.source = source;
    this.connectTimeout = connectTimeout;
    this.timeout = timeout;
    this.schedule = schedule;
    this.batchSize = batchSize;
    this.lease = lease;
    this.policy = policy;
  }

  /** Reads the settings from a configuration, one property name at a time. */
  public static WebhookSettings read(Function<String, Optional<String>> config) {
    return read(config, WebhookTargets.Resolver.system());
  }

  static WebhookSettings read(
      Function<String, Optional<String>> config, WebhookTargets.Resolver resolver) {
    Function<String, Optional<String>> property =
        name -> config.apply(name).map(String::trim).filter(value -> !value.isEmpty());
    WebhookTargets.Policy policy =
        new WebhookTargets.Policy(
            flag(property, PREFIX + "allow-http"),
            flag(property, PREFIX + "allow-private-targets"));
    if (policy.allowHttp() || policy.allowPrivateTargets()) {
      LOG.warning(
          "events.webhooks.allow-http or events.webhooks.allow-private-targets is on: webhooks"
              + " may go unencrypted or to this machine's own network. Development and tests only.");
    }
    List<WebhookEndpoint> endpoints = new ArrayList<>();
    for (String name : list(property.apply(PREFIX + "endpoints").orElse(""))) {
      endpoint(name, property).ifPresent(endpoints::add);
    }
    for (WebhookEndpoint endpoint : endpoints) {
      warnIfRefused(endpoint, policy, resolver);
    }
    Optional<String> source = property.apply("events.source");
    if (!endpoints.isEmpty() && source.isEmpty()) {
      LOG.warning(
          "webhooks are configured but events.source is not set: no webhook is recorded until it"
              + " is (it is the CloudEvents source every webhook carries)");
    }
    Duration connectTimeout = duration(property, PREFIX + "connect-timeout", Duration.ofSeconds(5));
    Duration timeout = duration(property, PREFIX + "timeout", Duration.ofSeconds(10));
    Duration lease = duration(property, PREFIX + "lease", Duration.ofSeconds(60));
    Duration longestSend = connectTimeout.plus(timeout).plusSeconds(5);
    if (lease.compareTo(longestSend) < 0) {
      // A lease that runs out mid-send lets another node send the same delivery again.
      LOG.warning(
          "events.webhooks.lease "
              + lease
              + " is shorter than a send can take; using "
              + longestSend);
      lease = longestSend;
    }
    return new WebhookSettings(
        endpoints,
        source,
        connectTimeout,
        timeout,
        schedule(property),
        positive(property, PREFIX + "batch-size", 20),
        lease,
        policy);
  }

  private static Optional<WebhookEndpoint> endpoint(
      String name, Function<String, Optional<String>> property) {
    if (!NAME.matcher(name).matches()) {
      return refused(name, "its name is not 1 to 64 letters, digits, '-' or '_'");
    }
    String key = PREFIX + name + ".";
    Optional<String> url = property.apply(key + "url");
    if (url.isEmpty()) {
      return refused(name, key + "url is not set");
    }
    URI uri;
    try {
      uri = new URI(url.get());
    } catch (URISyntaxException e) {
      return refused(name, key + "url is not a URL");
    }
    if (!uri.isAbsolute() || uri.getHost() == null) {
      return refused(name, key + "url is not an absolute URL with a host");
    }
    Optional<String> tenants = property.apply(key + "tenants");
    if (tenants.isEmpty()) {
      return refused(name, key + "tenants is not set (a list of tenant ids, or * for all)");
    }
    Set<String> receives = new LinkedHashSet<>(list(tenants.get()));
    if (receives.contains("*")) {
      receives.clear();
    } else if (receives.isEmpty()) {
      return refused(name, key + "tenants names no tenant");
    }
    List<String> secrets = list(property.apply(key + "secrets").orElse(""));
    WebhookSigner signer;
    try {
      signer = WebhookSigner.of(secrets);
    } catch (IllegalArgumentException e) {
      return refused(name, key + "secrets: " + e.getMessage());
    }
    return Optional.of(new WebhookEndpoint(name, uri, receives, signer));
  }

  private static Optional<WebhookEndpoint> refused(String name, String why) {
    LOG.warning(
        () -> "webhook endpoint '" + name + "' is left out, nothing will be sent to it: " + why);
    return Optional.empty();
  }

  private static void warnIfRefused(
      WebhookEndpoint endpoint, WebhookTargets.Policy policy, WebhookTargets.Resolver resolver) {
    WebhookTargets.Verdict verdict = WebhookTargets.check(endpoint.url(), policy, resolver);
    if (verdict.outcome() == WebhookTargets.Outcome.REFUSED) {
      LOG.warning(
          () ->
              "webhook endpoint '"
                  + endpoint.name()
                  + "' is a refused target, its deliveries will be parked until it is fixed: "
                  + verdict.reason());
    } else if (verdict.outcome() == WebhookTargets.Outcome.UNRESOLVED) {
      LOG.warning(
          () ->
              "webhook endpoint '"
                  + endpoint.name()
                  + "' cannot be checked now ("
                  + verdict.reason()
                  + "); it is checked again before each send");
    }
  }

  private static RetrySchedule schedule(Function<String, Optional<String>> property) {
    String name = PREFIX + "retry-schedule";
    Optional<String> text = property.apply(name);
    if (text.isPresent()) {
      try {
        return RetrySchedule.parse(text.get());
      } catch (IllegalArgumentException e) {
        LOG.warning(() -> name + " is unusable (" + e.getMessage() + "); using the standard one");
      }
    }
    return RetrySchedule.parse(RetrySchedule.STANDARD);
  }

  private static boolean flag(Function<String, Optional<String>> property, String name) {
    return property.apply(name).map(Boolean::parseBoolean).orElse(false);
  }

  private static Duration duration(
      Function<String, Optional<String>> property, String name, Duration fallback) {
    Optional<String> text = property.apply(name);
    if (text.isEmpty()) {
      return fallback;
    }
    try {
      Duration value = Duration.parse(text.get());
      if (!value.isNegative() && !value.isZero()) {
        return value;
      }
    } catch (DateTimeParseException e) {
      // Reported below.
    }
    LOG.warning(() -> name + " is not a positive ISO duration; using " + fallback);
    return fallback;
  }

  private static int positive(
      Function<String, Optional<String>> property, String name, int fallback) {
    Optional<String> text = property.apply(name);
    if (text.isEmpty()) {
      return fallback;
    }
    try {
      int value = Integer.parseInt(text.get());
      if (value > 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    LOG.warning(() -> name + " is not a positive number; using " + fallback);
    return fallback;
  }

  private static List<String> list(String text) {
    return Arrays.stream(text.split(","))
        .map(String::trim)
        .filter(item -> !item.isEmpty())
        .distinct()
        .collect(Collectors.toList());
  }

  /** The usable endpoints, in the configured order. */
  public List<WebhookEndpoint> endpoints() {
    return endpoints;
  }

  /** The endpoints that receive {@code tenantId}'s events. */
  public List<WebhookEndpoint> receiving(String tenantId) {
    return endpoints.stream().filter(endpoint -> endpoint.receives(tenantId)).toList();
  }

  /** Endpoints by name. */
  public Map<String, WebhookEndpoint> byName() {
    return endpoints.stream()
        .collect(Collectors.toUnmodifiableMap(WebhookEndpoint::name, endpoint -> endpoint));
  }

  /** Whether webhooks are sent at all: an endpoint is usable and the source is known. */
  public boolean enabled() {
    return !endpoints.isEmpty() && source.isPresent();
  }

  public Optional<String> source() {
    return source;
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  public Duration timeout() {
    return timeout;
  }

  public RetrySchedule schedule() {
    return schedule;
  }

  public int batchSize() {
    return batchSize;
  }

  public Duration lease() {
    return lease;
  }

  public WebhookTargets.Policy policy() {
    return policy;
  }
}
