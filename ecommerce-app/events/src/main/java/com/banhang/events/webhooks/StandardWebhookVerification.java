package com.banhang.events.webhooks;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.EmptyWebhookSecretException;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Verifies a received Standard Webhooks request, for a subscriber's side (and the tests' sample
 * subscriber): the {@code webhook-id}, {@code webhook-timestamp} and {@code webhook-signature}
 * headers are present, the timestamp is within the tolerance window of now (a replayed request is
 * refused once it is older), the body is the UTF-8 that was signed, and a signature matches one of
 * the secrets the subscriber knows: during a rotation it knows the old and the new one, and a
 * request signed with either is accepted. The signatures are checked by the Standard Webhooks
 * library.
 *
 * <p>What it does not do: refuse a replay within the window. A subscriber keeps the {@code
 * webhook-id}s it handled (an inbox) and handles each once; {@link #verify} returns the id for
 * that.
 */
public final class StandardWebhookVerification {

  /**
   * The widest window, and the default: the library itself refuses a timestamp more than five
   * minutes from its clock.
   */
  public static final Duration MAX_TOLERANCE = Duration.ofMinutes(5);

  private final List<Webhook> keys;
  private final Duration tolerance;
  private final Clock clock;

  /** Verification with {@code secrets} ({@code whsec_<base64>} each) and a five-minute window. */
  public StandardWebhookVerification(List<String> secrets) {
    this(secrets, MAX_TOLERANCE, Clock.systemUTC());
  }

  /**
   * Verification with {@code secrets}, accepting timestamps within {@code tolerance} (at most
   * {@link #MAX_TOLERANCE}) of {@code clock}'s now.
   */
  public StandardWebhookVerification(List<String> secrets, Duration tolerance, Clock clock) {
    if (secrets.isEmpty()) {
      throw new IllegalArgumentException("no secret to verify with");
    }
    if (tolerance.isNegative() || tolerance.compareTo(MAX_TOLERANCE) > 0) {
      throw new IllegalArgumentException("the tolerance must be 0 to " + MAX_TOLERANCE);
    }
    List<Webhook> parsed = new ArrayList<>();
    for (String secret : secrets) {
      try {
        parsed.add(new Webhook(secret));
      } catch (EmptyWebhookSecretException e) {
        throw new IllegalArgumentException("an empty secret", e);
      }
    }
    this.keys = List.copyOf(parsed);
    this.tolerance = tolerance;
    this.clock = clock;
  }

  /**
   * Verifies a request.
   *
   * @param headers the request's headers, names in any case
   * @param body the request's body, exactly as received
   * @return its {@code webhook-id}, the key to handle it once
   * @throws RefusedWebhookException when it is not to be trusted
   */
  public String verify(Map<String, List<String>> headers, byte[] body)
      throws RefusedWebhookException {
    return check(headers, body).id();
  }

  /**
   * Verifies a request, telling how: which secret's signature matched, and when it was signed (for
   * a receiver that shows its operators the verification of what it kept).
   *
   * @param headers the request's headers, names in any case
   * @param body the request's body, exactly as received
   * @throws RefusedWebhookException when it is not to be trusted
   */
  public VerifiedWebhook check(Map<String, List<String>> headers, byte[] body)
      throws RefusedWebhookException {
    String id = header(headers, "webhook-id");
    String timestamp = header(headers, "webhook-timestamp");
    String signature = header(headers, "webhook-signature");
    long seconds;
    try {
      seconds = Long.parseLong(timestamp);
    } catch (NumberFormatException e) {
      throw new RefusedWebhookException("webhook-timestamp is not a number of seconds");
    }
    long now = clock.instant().getEpochSecond();
    if (Math.abs(now - seconds) > tolerance.getSeconds()) {
      throw new RefusedWebhookException(
          "webhook-timestamp is outside the window of " + tolerance + " around now");
    }
    String text = utf8(body);
    Map<String, List<String>> signed =
        Map.of(
            "webhook-id", List.of(id),
            "webhook-timestamp", List.of(timestamp),
            "webhook-signature", List.of(signature));
    for (int i = 0; i < keys.size(); i++) {
      try {
        keys.get(i).verify(text, signed);
        return new VerifiedWebhook(id, Instant.ofEpochSecond(seconds), i + 1, keys.size(), text);
      } catch (WebhookVerificationException e) {
        // Another secret may match (a rotation).
      }
    }
    throw new RefusedWebhookException("no signature matches a known secret");
  }

  private static String header(Map<String, List<String>> headers, String name)
      throws RefusedWebhookException {
    for (Map.Entry<String, List<String>> entry : headers.entrySet()) {
      if (name.equalsIgnoreCase(entry.getKey())
          && entry.getValue() != null
          && !entry.getValue().isEmpty()
          && !entry.getValue().get(0).isBlank()) {
        return entry.getValue().get(0).trim();
      }
    }
    throw new RefusedWebhookException("the " + name + " header is missing");
  }

  /** The body as text, refusing bytes that are not UTF-8 (no replacement character slips in). */
  private static String utf8(byte[] body) throws RefusedWebhookException {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(body))
          .toString();
    } catch (CharacterCodingException e) {
      throw new RefusedWebhookException("the body is not UTF-8");
    }
  }
}
