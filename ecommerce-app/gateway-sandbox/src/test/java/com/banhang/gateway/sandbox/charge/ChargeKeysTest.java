package com.banhang.gateway.sandbox.charge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChargeKeysTest {

  @ParameterizedTest
  @ValueSource(
      strings = {"a", "8e03978e-40d5-43e8-bc93-6894a57f9324", "!~\"quoted\"", "UPPER_lower.123"})
  void acceptsPrintableAsciiWithoutSpaces(String key) {
    assertThat(ChargeKeys.require(key)).isEqualTo(key);
  }

  @Test
  void acceptsExactly255Characters() {
    String key = "k".repeat(255);

    assertThat(ChargeKeys.isValid(key)).isTrue();
    assertThat(ChargeKeys.isValid(key + "k")).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"with space", "tab\there", "new\nline", "caf\u00e9", "\u0000", "del\u007f"})
  void rejectsSpacesControlCharactersAndNonAscii(String key) {
    assertThatThrownBy(() -> ChargeKeys.require(key))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> assertThat(e.errorCode()).isEqualTo("idempotency_key_invalid"));
  }

  @Test
  void aMissingOrEmptyKeyIsMissing() {
    assertThatThrownBy(() -> ChargeKeys.require(null))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> assertThat(e.errorCode()).isEqualTo("idempotency_key_missing"));
    assertThatThrownBy(() -> ChargeKeys.require(""))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> assertThat(e.errorCode()).isEqualTo("idempotency_key_missing"));
  }
}
