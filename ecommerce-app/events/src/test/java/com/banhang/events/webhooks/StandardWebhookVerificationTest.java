package com.banhang.events.webhooks;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The receiver's check: a genuine request is accepted with either secret of a rotation; a bad
 * signature, a stale or future timestamp, a changed id or any body changed by one byte is refused.
 */
class StandardWebhookVerificationTest {

  private static final String ID = "0b7e6c1e-3f0a-4c55-9d39-4a4c1d1b7e10";
  private static final String BODY =
      "{\"specversion\":\"1.0\",\"id\":\"" + ID + "\",\"data\":{\"total\":\"12.50\",\"ö\":true}}";

  private final String oldSecret = Secrets.newSecret();
  private final String newSecret = Secrets.newSecret();

  private static Map<String, List<String>> headers(String id, long timestamp, String signature) {
    return Map.of(
        "Webhook-Id", List.of(id),
        "Webhook-Timestamp", List.of(Long.toString(timestamp)),
        "Webhook-Signature", List.of(signature));
  }

  private static long now() {
    return Instant.now().getEpochSecond();
  }

  private Map<String, List<String>> signed(long timestamp, String body, String... secrets) {
    return headers(
        ID, timestamp, WebhookSigner.of(List.of(secrets)).signature(ID, timestamp, body));
  }

  @Test
  void aGenuineRequestIsAccepted_andItsIdReturnedToHandleItOnce() throws Exception {
    StandardWebhookVerification verification = new StandardWebhookVerification(List.of(newSecret));

    assertThat(verification.verify(signed(now(), BODY, newSecret), BODY.getBytes(UTF_8)))
        .isEqualTo(ID);
  }

  @Test
  void duringARotation_aReceiverKnowingEitherSecretAccepts_oneKnowingNeitherRefuses()
      throws Exception {
    Map<String, List<String>> both = signed(now(), BODY, oldSecret, newSecret);
    byte[] body = BODY.getBytes(UTF_8);

    assertThat(both.get("Webhook-Signature").get(0).split(" ")).hasSize(2);
    assertThat(new StandardWebhookVerification(List.of(newSecret)).verify(both, body))
        .isEqualTo(ID);
    assertThat(new StandardWebhookVerification(List.of(oldSecret)).verify(both, body))
        .isEqualTo(ID);
    assertThatThrownBy(
            () -> new StandardWebhookVerification(List.of(Secrets.newSecret())).verify(both, body))
        .isInstanceOf(RefusedWebhookException.class)
        .hasMessageContaining("no signature matches");
    // A receiver mid-rotation on its side knows both and accepts a request signed with one.
    assertThat(
            new StandardWebhookVerification(List.of(oldSecret, newSecret))
                .verify(signed(now(), BODY, newSecret), body))
        .isEqualTo(ID);
  }

  @Test
  void aSignatureWithAnotherSecretIsRefused() {
    StandardWebhookVerification verification = new StandardWebhookVerification(List.of(newSecret));

    assertThatThrownBy(
            () -> verification.verify(signed(now(), BODY, oldSecret), BODY.getBytes(UTF_8)))
        .isInstanceOf(RefusedWebhookException.class)
        .hasMessageContaining("no signature matches");
  }

  @Test
  void aTimestampMoreThanFiveMinutesOld_orAhead_isRefused() {
    StandardWebhookVerification verification = new StandardWebhookVerification(List.of(newSecret));
    byte[] body = BODY.getBytes(UTF_8);

    for (long skew : new long[] {-301, 301, -3600}) {
      assertThatThrownBy(() -> verification.verify(signed(now() + skew, BODY, newSecret), body))
          .as("%d seconds from now", skew)
          .isInstanceOf(RefusedWebhookException.class)
          .hasMessageContaining("outside the window");
    }
  }

  @Test
  void aNarrowerWindowRefusesWhatTheLibrarysFiveMinutesWouldAccept() throws Exception {
    Instant now = Instant.now();
    StandardWebhookVerification verification =
        new StandardWebhookVerification(
            List.of(newSecret), Duration.ofSeconds(60), Clock.fixed(now, ZoneOffset.UTC));
    byte[] body = BODY.getBytes(UTF_8);

    assertThat(verification.verify(signed(now.getEpochSecond() - 30, BODY, newSecret), body))
        .isEqualTo(ID);
    assertThatThrownBy(
            () -> verification.verify(signed(now.getEpochSecond() - 120, BODY, newSecret), body))
        .isInstanceOf(RefusedWebhookException.class)
        .hasMessageContaining("outside the window");
  }

  @Test
  void aBodyChangedInAnyOneByte_isRefused() {
    StandardWebhookVerification verification = new StandardWebhookVerification(List.of(newSecret));
    Map<String, List<String>> headers = signed(now(), BODY, newSecret);
    byte[] original = BODY.getBytes(UTF_8);

    for (int i = 0; i < original.length; i++) {
      byte[] changed = original.clone();
      changed[i] ^= 0x01;
      int position = i;
      assertThatThrownBy(() -> verification.verify(headers, changed))
          .as("byte %d changed", position)
          .isInstanceOf(RefusedWebhookException.class);
    }
    byte[] longer = (BODY + " ").getBytes(UTF_8);
    assertThatThrownBy(() -> verification.verify(headers, longer))
        .isInstanceOf(RefusedWebhookException.class);
  }

  @Test
  void anotherIdUnderTheSameSignature_isRefused() {
    long timestamp = now();
    String signature = WebhookSigner.of(List.of(newSecret)).signature(ID, timestamp, BODY);

    assertThatThrownBy(
            () ->
                new StandardWebhookVerification(List.of(newSecret))
                    .verify(headers("another-id", timestamp, signature), BODY.getBytes(UTF_8)))
        .isInstanceOf(RefusedWebhookException.class)
        .hasMessageContaining("no signature matches");
  }

  @Test
  void aMissingHeaderOrATimestampThatIsNoNumber_isRefused() {
    StandardWebhookVerification verification = new StandardWebhookVerification(List.of(newSecret));
    byte[] body = BODY.getBytes(UTF_8);

    assertThatThrownBy(
            () ->
                verification.verify(
                    Map.of("webhook-id", List.of(ID), "webhook-timestamp", List.of("1")), body))
        .isInstanceOf(RefusedWebhookException.class)
        .hasMessageContaining("webhook-signature header is missing");
    assertThatThrownBy(() -> verification.verify(headers(ID, 0, "v1,x"), body))
        .isInstanceOf(RefusedWebhookException.class);
    assertThatThrownBy(
            () ->
                verification.verify(
                    Map.of(
                        "webhook-id", List.of(ID),
                        "webhook-timestamp", List.of("soon"),
                        "webhook-signature", List.of("v1,x")),
                    body))
        .isInstanceOf(RefusedWebhookException.class)
        .hasMessageContaining("not a number");
  }

  @Test
  void aWindowWiderThanTheLibrarysIsRefusedAtConstruction() {
    assertThatThrownBy(
            () ->
                new StandardWebhookVerification(
                    List.of(newSecret), Duration.ofMinutes(6), Clock.systemUTC()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new StandardWebhookVerification(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
