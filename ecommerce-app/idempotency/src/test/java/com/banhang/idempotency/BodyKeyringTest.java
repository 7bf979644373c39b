package com.banhang.idempotency;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The keyring's configuration and the production validation hook (docs/idempotency.md). */
class BodyKeyringTest {

  private static final String K1 = Base64.getEncoder().encodeToString(new byte[32]);
  private static final String K2 =
      Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes(UTF_8));

  private static BodyKeyring cipher(Map<String, String> values) {
    return BodyKeyring.of(new MapConfig(values));
  }

  @Test
  void nothingConfigured_noEncryption_butValidateRefuses() {
    assertThat(cipher(Map.of()).encrypts()).isFalse();
    assertThatThrownBy(() -> BodyKeyring.validate(new MapConfig(Map.of())))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("idempotency.body-keys");
  }

  @Test
  void legacyKeyAlone_isTheKeyIdLegacy() {
    BodyKeyring cipher = cipher(Map.of(BodyKeyring.LEGACY_KEY, K1));

    assertThat(cipher.sealingKeyId()).isEqualTo("legacy");
    assertThat(BodyKeyring.validate(new MapConfig(Map.of(BodyKeyring.LEGACY_KEY, K1))))
        .isEqualTo("legacy");
  }

  @Test
  void ringOfOne_sealsWithIt_withoutAKeyId() {
    assertThat(cipher(Map.of(BodyKeyring.KEYS, "2026-01:" + K1)).sealingKeyId())
        .isEqualTo("2026-01");
  }

  @Test
  void ringOfTwo_sealsWithTheNamedKey_andKeepsBothAndTheLegacyKey() {
    BodyKeyring cipher =
        cipher(
            Map.of(
                BodyKeyring.KEYS,
                " k1:" + K1 + " , k2:" + K2,
                BodyKeyring.KEY_ID,
                "k2",
                BodyKeyring.LEGACY_KEY,
                K1));

    assertThat(cipher.sealingKeyId()).isEqualTo("k2");
    assertThat(cipher.keyIds()).containsExactlyInAnyOrder("k1", "k2", "legacy");
  }

  @Test
  void ringOfTwo_withoutKeyId_isRefused() {
    assertThatThrownBy(() -> cipher(Map.of(BodyKeyring.KEYS, "k1:" + K1 + ",k2:" + K2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("idempotency.body-key-id");
  }

  @Test
  void invalidEntries_areRefused_withoutKeyMaterialInTheMessage() {
    String shortKey = Base64.getEncoder().encodeToString(new byte[16]);
    for (Map<String, String> bad :
        java.util.List.of(
            Map.of(BodyKeyring.KEYS, K1),
            Map.of(BodyKeyring.KEYS, "k1:" + shortKey),
            Map.of(BodyKeyring.KEYS, "k1:not base64!"),
            Map.of(BodyKeyring.KEYS, "k1:" + K1 + ",k1:" + K2),
            Map.of(BodyKeyring.KEYS, "k1:" + K1 + ","),
            Map.of(BodyKeyring.KEYS, "bad id:" + K1),
            Map.of(BodyKeyring.KEYS, "k1:" + K1, BodyKeyring.KEY_ID, "k9"),
            Map.of(BodyKeyring.KEYS, "legacy:" + K2, BodyKeyring.LEGACY_KEY, K1),
            Map.of(BodyKeyring.KEY_ID, "k1"))) {
      assertThatThrownBy(() -> cipher(bad))
          .as("%s", bad.keySet())
          .isInstanceOf(IllegalArgumentException.class)
          .satisfies(
              e ->
                  assertThat(e.getMessage())
                      .doesNotContain(K1)
                      .doesNotContain(K2)
                      .doesNotContain(shortKey));
      assertThatThrownBy(() -> BodyKeyring.validate(new MapConfig(bad)))
          .isInstanceOf(IllegalStateException.class);
    }
  }
}
