package com.banhang.shop.payments.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import com.banhang.idempotency.ClaimedKey;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

/** The gateway key's derivation and the checks of its server secret. */
class GatewayKeysTest {

  private static final String SECRET = base64(32, (byte) 7);
  private static final ClaimedKey CLAIM = new ClaimedKey("alice", "payments.charge", "k-1", 1);

  private static String base64(int length, byte fill) {
    byte[] bytes = new byte[length];
    java.util.Arrays.fill(bytes, fill);
    return Base64.getEncoder().encodeToString(bytes);
  }

  private static Config configWith(String secret) {
    Config config = mock(Config.class);
    when(config.getOptionalValue(GatewayKeys.SECRET_PROPERTY, String.class))
        .thenReturn(Optional.ofNullable(secret));
    return config;
  }

  private static String derive(GatewayKeys keys, ClaimedKey claim, long amount, String method) {
    return keys.derive(claim, "order-1", amount, "VND", method);
  }

  @Test
  void theSameRequestGetsTheSameKeyOnEveryClaim() {
    GatewayKeys keys = GatewayKeys.withSecret(SECRET);
    String first = derive(keys, CLAIM, 1000, "pm_card_ok");

    assertThat(first).matches("banhang_[0-9a-f]{48}");
    assertThat(
            derive(keys, new ClaimedKey("alice", "payments.charge", "k-1", 7), 1000, "pm_card_ok"))
        .isEqualTo(first);
    assertThat(derive(GatewayKeys.withSecret(SECRET), CLAIM, 1000, "pm_card_ok")).isEqualTo(first);
  }

  @Test
  void anotherBodyTenantKeyOrSecretGetsAnotherKey() {
    GatewayKeys keys = GatewayKeys.withSecret(SECRET);
    String first = derive(keys, CLAIM, 1000, "pm_card_ok");

    assertThat(derive(keys, CLAIM, 1001, "pm_card_ok")).isNotEqualTo(first);
    assertThat(derive(keys, CLAIM, 1000, "pm_card_declined")).isNotEqualTo(first);
    assertThat(keys.derive(CLAIM, "order-2", 1000, "VND", "pm_card_ok")).isNotEqualTo(first);
    assertThat(keys.derive(CLAIM, "order-1", 1000, "USD", "pm_card_ok")).isNotEqualTo(first);
    assertThat(derive(keys, new ClaimedKey("bob", "payments.charge", "k-1", 1), 1000, "pm_card_ok"))
        .isNotEqualTo(first);
    assertThat(
            derive(keys, new ClaimedKey("alice", "payments.charge", "k-2", 1), 1000, "pm_card_ok"))
        .isNotEqualTo(first);
    assertThat(derive(GatewayKeys.withSecret(base64(32, (byte) 8)), CLAIM, 1000, "pm_card_ok"))
        .isNotEqualTo(first);
  }

  @Test
  void aClientCannotComputeItFromWhatItKnows() throws Exception {
    // The former derivation: SHA-256 over the length-prefixed tenant, operation and key.
    MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
    for (String part : new String[] {"alice", "payments.charge", "k-1"}) {
      byte[] bytes = part.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      sha256.update(java.nio.ByteBuffer.allocate(4).putInt(bytes.length).array());
      sha256.update(bytes);
    }
    String guessable = "banhang_" + HexFormat.of().formatHex(sha256.digest(), 0, 24);

    assertThat(derive(GatewayKeys.withSecret(SECRET), CLAIM, 1000, "pm_card_ok"))
        .isNotEqualTo(guessable)
        .isNotEqualTo(CLAIM.derivedReference("banhang_"));
  }

  @Test
  void aMissingSecretFailsWithTheNameOfTheProperty() {
    assertThatThrownBy(() -> GatewayKeys.validate(configWith(null)))
        .isInstanceOf(InvalidGatewayKeySecretException.class)
        .hasMessageContaining("payments.gateway-key-secret")
        .hasMessageContaining("not set");
    assertThatThrownBy(() -> GatewayKeys.validate(configWith("  ")))
        .hasMessageContaining("payments.gateway-key-secret");
  }

  @Test
  void aShortOrMalformedSecretFailsWithoutShowingIt() {
    String tooShort = base64(31, (byte) 1);
    assertThatThrownBy(() -> GatewayKeys.validate(configWith(tooShort)))
        .isInstanceOf(InvalidGatewayKeySecretException.class)
        .hasMessageContaining("payments.gateway-key-secret")
        .hasMessageContaining("31 bytes")
        .hasMessageNotContaining(tooShort);
    assertThatThrownBy(() -> GatewayKeys.validate(configWith("not base64 at all!")))
        .hasMessageContaining("payments.gateway-key-secret")
        .hasMessageContaining("base64")
        .hasMessageNotContaining("not base64 at all!");
    assertThatThrownBy(() -> GatewayKeys.withSecret(tooShort))
        .isInstanceOf(InvalidGatewayKeySecretException.class);
  }

  @Test
  void aGoodSecretPassesAndTheFirstUseOfAMissingOneFails() {
    GatewayKeys.validate(configWith(SECRET));

    GatewayKeys configured = new GatewayKeys();
    configured.config = configWith(SECRET);
    assertThat(derive(configured, CLAIM, 1000, "pm_card_ok"))
        .isEqualTo(derive(GatewayKeys.withSecret(SECRET), CLAIM, 1000, "pm_card_ok"));

    GatewayKeys unconfigured = new GatewayKeys();
    unconfigured.config = configWith(null);
    assertThatThrownBy(() -> derive(unconfigured, CLAIM, 1000, "pm_card_ok"))
        .isInstanceOf(InvalidGatewayKeySecretException.class)
        .hasMessageContaining("payments.gateway-key-secret");
  }
}
