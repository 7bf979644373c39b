package com.banhang.gateway.sandbox.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.standardwebhooks.Webhook;
import com.standardwebhooks.exceptions.WebhookVerificationException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class StandardWebhookSignerTest {

  /** Test-only secrets: base64 of 32 and 40 ASCII bytes. */
  static final String SECRET_OLD = secret("0123456789abcdef0123456789abcdef");

  static final String SECRET_NEW = secret("fedcba9876543210fedcba9876543210-rotated");

  private static final String ID = "evt_bdb735019a2207a5f6efdecc2ac19b04";
  private static final String BODY =
      "{\"id\":\"evt_bdb735019a2207a5f6efdecc2ac19b04\",\"type\":\"charge.succeeded\"}";

  static String secret(String key) {
    return "whsec_" + Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.US_ASCII));
  }

  private static Map<String, List<String>> asReceived(Map<String, String> headers) {
    return headers.entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, entry -> List.of(entry.getValue())));
  }

  /** The specification's computation, by hand: base64 HMAC-SHA256 of "id.timestamp.body". */
  static String handSignature(String secret, String id, long timestamp, String body)
      throws Exception {
    byte[] key = Base64.getDecoder().decode(secret.substring("whsec_".length()));
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    byte[] digest =
        mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
    return "v1," + Base64.getEncoder().encodeToString(digest);
  }

  @Test
  void theLibraryVerifiesWhatTheSignerSigns() {
    long now = Instant.now().getEpochSecond();
    Map<String, String> headers =
        StandardWebhookSigner.of(List.of(SECRET_OLD)).headers(ID, now, BODY);

    assertThat(headers)
        .containsEntry("webhook-id", ID)
        .containsEntry("webhook-timestamp", Long.toString(now));
    assertThatCode(() -> new Webhook(SECRET_OLD).verify(BODY, asReceived(headers)))
        .doesNotThrowAnyException();
  }

  @Test
  void theSignatureIsTheSpecificationsHmacComputedByHand() throws Exception {
    long timestamp = 1_796_000_000L;

    Map<String, String> headers =
        StandardWebhookSigner.of(List.of(SECRET_OLD)).headers(ID, timestamp, BODY);

    assertThat(headers.get("webhook-signature"))
        .isEqualTo(handSignature(SECRET_OLD, ID, timestamp, BODY));
  }

  @Test
  void aChangedBodyIdOrSecretFailsVerification() {
    long now = Instant.now().getEpochSecond();
    Map<String, String> headers =
        StandardWebhookSigner.of(List.of(SECRET_OLD)).headers(ID, now, BODY);

    assertThatThrownBy(() -> new Webhook(SECRET_OLD).verify(BODY + " ", asReceived(headers)))
        .isInstanceOf(WebhookVerificationException.class);
    assertThatThrownBy(() -> new Webhook(SECRET_NEW).verify(BODY, asReceived(headers)))
        .isInstanceOf(WebhookVerificationException.class);
    Map<String, String> otherId = new HashMap<>(headers);
    otherId.put("webhook-id", "evt_other");
    assertThatThrownBy(() -> new Webhook(SECRET_OLD).verify(BODY, asReceived(otherId)))
        .isInstanceOf(WebhookVerificationException.class);
  }

  @Test
  void duringARotationEachSecretSignsAndEitherVerifies() throws Exception {
    long now = Instant.now().getEpochSecond();

    Map<String, String> headers =
        StandardWebhookSigner.of(List.of(SECRET_OLD, SECRET_NEW)).headers(ID, now, BODY);

    assertThat(headers.get("webhook-signature"))
        .isEqualTo(
            handSignature(SECRET_OLD, ID, now, BODY)
                + " "
                + handSignature(SECRET_NEW, ID, now, BODY));
    assertThatCode(() -> new Webhook(SECRET_OLD).verify(BODY, asReceived(headers)))
        .doesNotThrowAnyException();
    assertThatCode(() -> new Webhook(SECRET_NEW).verify(BODY, asReceived(headers)))
        .doesNotThrowAnyException();
  }

  @Test
  void refusesMalformedSecretsWithoutShowingThem() {
    String notBase64 = "whsec_not*base64!";
    String noPrefix = SECRET_OLD.substring("whsec_".length());
    String tooShort = secret("only-twenty-three-bytes");
    String tooLong = secret("x".repeat(65));

    assertThatThrownBy(() -> StandardWebhookSigner.of(List.of()))
        .isInstanceOf(InvalidWebhookSettingsException.class);
    assertThatThrownBy(() -> StandardWebhookSigner.of(List.of(SECRET_OLD, noPrefix)))
        .isInstanceOf(InvalidWebhookSettingsException.class)
        .hasMessageContaining("secret 2")
        .hasMessageNotContaining(noPrefix);
    assertThatThrownBy(() -> StandardWebhookSigner.of(List.of(notBase64)))
        .hasMessageContaining("not base64")
        .hasMessageNotContaining(notBase64);
    assertThatThrownBy(() -> StandardWebhookSigner.of(List.of(tooShort)))
        .hasMessageContaining("23 bytes");
    assertThatThrownBy(() -> StandardWebhookSigner.of(List.of(tooLong)))
        .hasMessageContaining("65 bytes");
  }

  @Test
  void neverShowsItsSecrets() {
    assertThat(StandardWebhookSigner.of(List.of(SECRET_OLD, SECRET_NEW)))
        .hasToString("2 secret(s)");
  }
}
