package com.banhang.shop.admin.application;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogTextTest {

  @Test
  void lineBreaks_cannotForgeALogLine() {
    String forged = "refund\r\nINFO operator admin approved everything";
    String safe = LogText.of(forged);
    assertThat(safe).doesNotContain("\n").doesNotContain("\r");
    assertThat(safe).isEqualTo("refund\\r\\nINFO operator admin approved everything");
  }

  @Test
  void controlAndInvisibleCharacters_areShownAsEscapes() {
    assertThat(LogText.of("a\u001b[31mred\u0000b\tc\u2028d\u0085e\u202ef"))
        .isEqualTo("a\\u001b[31mred\\u0000b\\tc\\u2028d\\u0085e\\u202ef");
    assertThat(LogText.of("C:\\new"))
        .as("a literal backslash-n stays tellable")
        .isEqualTo("C:\\\\new");
  }

  @Test
  void ordinaryText_isUnchanged_nullIsSaid_longTextIsCut() {
    assertThat(LogText.of("Khách hàng đã thanh toán, key 7f3c-01"))
        .isEqualTo("Khách hàng đã thanh toán, key 7f3c-01");
    assertThat(LogText.of(null)).isEqualTo("null");
    assertThat(LogText.of("x".repeat(LogText.MAX_LENGTH + 5)))
        .hasSize(LogText.MAX_LENGTH + "...(5 more characters)".length())
        .endsWith("...(5 more characters)");
  }
}
