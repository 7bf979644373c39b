package com.banhang.gateway.sandbox.webhook;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where and how the sandbox delivers its webhooks. Off unless a URL is set. Always valid.
 *
 * @param url the shop's endpoint; empty: no webhooks (no events are recorded)
 * @param secrets the {@code whsec_} secrets that sign each delivery (several during a rotation);
 *     needed only with a URL
 * @param timeout how long one delivery may take (connect and answer), after which it failed
 * @param pollInterval how often the dispatcher looks for due events
 * @param retryInitial the wait after the first failed attempt; it doubles after each failure
 * @param retryMax the longest wait between two attempts
 * @param maxAttempts scheduled attempts before the event is given up (a resend still sends it)
 */
public record ChargeWebhookSettings(
    Optional<URI> url,
    List<String> secrets,
    Duration timeout,
    Duration pollInterval,
    Duration retryInitial,
    Duration retryMax,
    int maxAttempts) {

  public static final String URL = "sandbox.webhooks.url";
  public static final String SECRETS = "sandbox.webhooks.secrets";
  public static final String TIMEOUT = "sandbox.webhooks.timeout";
  public static final String POLL_INTERVAL = "sandbox.webhooks.poll-interval";
  public static final String RETRY_INITIAL = "sandbox.webhooks.retry-initial";
  public static final String RETRY_MAX = "sandbox.webhooks.retry-max";
  public static final String MAX_ATTEMPTS = "sandbox.webhooks.max-attempts";

  /** A delivery that takes longer than this is a sandbox bug, not a test. */
  static final Duration MAX_TIMEOUT = Duration.ofMinutes(1);

  /** Real processors retry for about three days. */
  static final Duration MAX_RETRY = Duration.ofDays(3);

  static final int MAX_MAX_ATTEMPTS = 100;

  /** No webhooks at all. */
  public static final ChargeWebhookSettings OFF =
      new ChargeWebhookSettings(
          Optional.empty(),
          List.of(),
          Duration.ofSeconds(5),
          Duration.ofSeconds(1),
          Duration.ofSeconds(5),
          Duration.ofMinutes(10),
          15);

  /**
   * Checks every value.
   *
   * @throws InvalidWebhookSettingsException naming the property that is wrong
   */
  public ChargeWebhookSettings {
    secrets = List.copyOf(secrets);
    url.ifPresent(ChargeWebhookSettings::requireHttp);
    if (url.isPresent()) {
      // Parses each secret, so that a bad one stops the start, not the first delivery.
      StandardWebhookSigner.of(secrets);
    }
    requireBetween(TIMEOUT, timeout, MAX_TIMEOUT);
    requireBetween(POLL_INTERVAL, pollInterval, MAX_TIMEOUT);
    requireBetween(RETRY_INITIAL, retryInitial, MAX_RETRY);
    requireBetween(RETRY_MAX, retryMax, MAX_RETRY);
    if (retryInitial.compareTo(retryMax) > 0) {
      throw new InvalidWebhookSettingsException(
          RETRY_INITIAL + ": must not be longer than " + RETRY_MAX);
    }
    if (maxAttempts < 1 || maxAttempts > MAX_MAX_ATTEMPTS) {
      throw new InvalidWebhookSettingsException(
          MAX_ATTEMPTS + ": must be between 1 and " + MAX_MAX_ATTEMPTS);
    }
  }

  /** Whether webhooks are on. */
  public boolean enabled() {
    return url.isPresent();
  }

  /** The wait after {@code failedAttempts} failures: doubling from the first, capped. */
  public Duration backoff(int failedAttempts) {
    Duration wait = retryInitial;
    for (int i = 1; i < failedAttempts && wait.compareTo(retryMax) < 0; i++) {
      wait = wait.multipliedBy(2);
    }
    return wait.compareTo(retryMax) > 0 ? retryMax : wait;
  }

  /**
   * The comma-separated secrets of a configuration value, blanks left out.
   *
   * @param value the raw value, or null for none
   */
  public static List<String> splitSecrets(String value) {
    if (value == null) {
      return List.of();
    }
    return Arrays.stream(value.split(","))
        .map(String::trim)
        .filter(secret -> !secret.isEmpty())
        .toList();
  }

  /**
   * The URL of a configuration value: empty for a blank one.
   *
   * @throws InvalidWebhookSettingsException when it is not a URI
   */
  public static Optional<URI> parseUrl(String value) {
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new URI(value.trim()));
    } catch (URISyntaxException e) {
      throw new InvalidWebhookSettingsException(URL + ": not a URI: " + e.getMessage());
    }
  }

  private static void requireHttp(URI url) {
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || url.getHost() == null) {
      throw new InvalidWebhookSettingsException(URL + ": must be an absolute http or https URL");
    }
  }

  private static void requireBetween(String name, Duration value, Duration max) {
    if (value == null || value.isNegative() || value.isZero() || value.compareTo(max) > 0) {
      throw new InvalidWebhookSettingsException(
          name + ": must be an ISO-8601 duration above zero and at most " + max);
    }
  }

  @Override
  public String toString() {
    // Never the secrets: they end up in the start-up log.
    return "ChargeWebhookSettings[url="
        + url.map(URI::toString).orElse("(off)")
        + ", secrets="
        + secrets.size()
        + ", timeout="
        + timeout
        + ", pollInterval="
        + pollInterval
        + ", retryInitial="
        + retryInitial
        + ", retryMax="
        + retryMax
        + ", maxAttempts="
        + maxAttempts
        + "]";
  }
}
