package com.banhang.events.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.standardwebhooks.Webhook;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Signing: one {@code v1,} signature per secret, each the library's; bad secrets never shown. */
class WebhookSignerTest {

  @Test
  void everySecretSigns_andEachSignatureVerifiesWithTheLibrary() throws Exception {
    String old = Secrets.newSecret();
    String current = Secrets.newSecret();
    long timestamp = Instant.now().getEpochSecond();

    String header = WebhookSigner.of(List.of(old, current)).signature("msg_1", timestamp, "{}");

    String[] signatures = header.split(" ");
    assertThat(signatures).hasSize(2).allSatisfy(s -> assertThat(s).startsWith("v1,"));
    assertThat(signatures[0]).isEqualTo(new Webhook(old).sign("msg_1", timestamp, "{}"));
    assertThat(signatures[1]).isEqualTo(new Webhook(current).sign("msg_1", timestamp, "{}"));
    Map<String, List<String>> headers =
        Map.of(
            "webhook-id", List.of("msg_1"),
            "webhook-timestamp", List.of(Long.toString(timestamp)),
            "webhook-signature", List.of(header));
    new Webhook(old).verify("{}", headers);
    new Webhook(current).verify("{}", headers);
  }

  @Test
  void aMalformedOrShortSecretIsRefused_byPosition_neverByValue() {
    String shortKey = "whsec_" + Base64.getEncoder().encodeToString(new byte[16]);
    String good = Secrets.newSecret();

    assertThatThrownBy(() -> WebhookSigner.of(List.of(good, "s3cr3t-without-prefix")))
        .hasMessageContaining("secret 2 of 2")
        .hasMessageContaining("whsec_")
        .hasMessageNotContaining("s3cr3t");
    assertThatThrownBy(() -> WebhookSigner.of(List.of("whsec_not*base64!")))
        .hasMessageContaining("not base64")
        .hasMessageNotContaining("not*base64");
    assertThatThrownBy(() -> WebhookSigner.of(List.of(shortKey)))
        .hasMessageContaining("16 bytes, fewer than 24");
    assertThatThrownBy(() -> WebhookSigner.of(List.of())).hasMessageContaining("no secret");
    assertThat(WebhookSigner.of(List.of(good)).toString()).doesNotContain(good.substring(6));
  }
}
