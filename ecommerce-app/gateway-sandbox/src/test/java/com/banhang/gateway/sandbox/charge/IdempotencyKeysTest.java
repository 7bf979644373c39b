package com.banhang.gateway.sandbox.charge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IdempotencyKeysTest {

  @ParameterizedTest
  @ValueSource(
      strings = {"a", "8e03978e-40d5-43e8-bc93-6894a57f9324", "!~\"quoted\"", "UPPER_lower.123"})
  void acceptsPrintableAsciiWithoutSpaces(String key) {
    assertThat(IdempotencyKeys.require(key)).isEqualTo(key);
  }

  @Test
  void acceptsExactly255Characters() {
    String key = "k".repeat(255);

    assertThat(IdempotencyKeys.isValid(key)).isTrue();
    assertThat(IdempotencyKeys.isValid(key + "k")).isFalse();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"with space", "tab\there", "new\nline", "caf\u00e9", "\u0000", "del\u007f"})
  void rejectsSpacesControlCharactersAndNonAscii(String key) {
    assertThatThrownBy(() -> IdempotencyKeys.require(key))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> assertThat(e.errorCode()).isEqualTo("idempotency_key_invalid"));
  }

  @Test
  void aMissingOrEmptyKeyIsMissing() {
    assertThatThrownBy(() -> IdempotencyKeys.require(null))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> assertThat(e.errorCode()).isEqualTo("idempotency_key_missing"));
    assertThatThrownBy(() -> IdempotencyKeys.require(""))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> assertThat(e.errorCode()).isEqualTo("idempotency_key_missing"));
  }
}
