package com.banhang.idempotency.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Examples of docs/idempotency.md: the two forms of the header and what is refused. */
class IdempotencyKeyParserTest {

  private static final String UUID = "8e03978e-40d5-43e8-bc93-6894a57f9324";

  @Test
  void bareToken_uuid_returnedUnchanged() throws Exception {
    assertThat(Admission.parseKey(UUID)).isEqualTo(UUID);
  }

  @Test
  void sfString_uuid_returnedUnquoted() throws Exception {
    assertThat(Admission.parseKey("\"" + UUID + "\"")).isEqualTo(UUID);
  }

  @Test
  void sfString_escapedQuoteAndBackslash_unescaped() throws Exception {
    assertThat(Admission.parseKey("\"a\\\"b\\\\c\"")).isEqualTo("a\"b\\c");
  }

  @Test
  void bareToken_everyPrintableAsciiCharacter_accepted() throws Exception {
    StringBuilder all = new StringBuilder();
    for (char c = 0x21; c <= 0x7E; c++) {
      if (c != '"') {
        all.append(c);
      }
    }
    String key = "k" + all + "\"";
    assertThat(Admission.parseKey(key)).isEqualTo(key);
  }

  @Test
  void key_differentCase_returnedWithItsOwnCase() throws Exception {
    assertThat(Admission.parseKey("AbC-def")).isEqualTo("AbC-def");
    assertThat(Admission.parseKey("abc-DEF")).isEqualTo("abc-DEF");
  }

  @Test
  void bareToken_surroundingSpacesAndTabs_stripped() throws Exception {
    assertThat(Admission.parseKey(" \t abc \t ")).isEqualTo("abc");
  }

  @Test
  void sfString_surroundingSpacesAndTabs_stripped() throws Exception {
    assertThat(Admission.parseKey("\t \"abc\" \t")).isEqualTo("abc");
  }

  @Test
  void bareToken_oneCharacter_accepted() throws Exception {
    assertThat(Admission.parseKey("x")).isEqualTo("x");
  }

  @Test
  void bareToken_255Characters_accepted() throws Exception {
    String key = "a".repeat(255);
    assertThat(Admission.parseKey(key)).isEqualTo(key);
  }

  @Test
  void sfString_255CharactersOnceUnescaped_accepted() throws Exception {
    String key = "a".repeat(254) + "\"";
    assertThat(Admission.parseKey("\"" + "a".repeat(254) + "\\\"\"")).isEqualTo(key);
  }

  @Test
  void bareToken_256Characters_rejected() {
    assertRejected("a".repeat(256));
  }

  @Test
  void sfString_256CharactersInside_rejected() {
    assertRejected("\"" + "a".repeat(256) + "\"");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "\t \t", "\"\"", " \"\" "})
  void header_emptyOnceStrippedOrUnquoted_rejected(String header) {
    assertRejected(header);
  }

  @Test
  void header_null_rejected() {
    assertRejected((String) null);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"ab\u0000c", "ab\u0001c", "ab\u001fc", "ab\u007fc", "ab\nc", "ab\rc", "abc\r\n"})
  void bareToken_controlCharacter_rejected(String header) {
    assertRejected(header);
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"ab\u0000c\"", "\"ab\u007fc\"", "\"ab\tc\""})
  void sfString_controlCharacter_rejected(String header) {
    assertRejected(header);
  }

  @ParameterizedTest
  @ValueSource(strings = {"ab c", "ab\tc", "\"ab c\"", "\" abc\"", "\"abc \""})
  void key_spaceOrTabInside_rejected(String header) {
    assertRejected(header);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "caf\u00e9",
        "\u00a0abc",
        "key-\u20ac",
        "\ud83d\ude00",
        "\"caf\u00e9\"",
        "abc\ud800"
      })
  void key_nonAscii_rejected(String header) {
    assertRejected(header);
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"ab\\c\"", "\"ab\\n\"", "\"ab\\u0041\"", "\"\\'\""})
  void sfString_escapeOtherThanQuoteOrBackslash_rejected(String header) {
    assertRejected(header);
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"abc", "\"", "\"abc\\\"", "\"abc\\", " \"abc "})
  void sfString_unterminated_rejected(String header) {
    assertRejected(header);
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"abc\"x", "\"abc\" x", "\"abc\"\"", "\"a\"\"b\"", "\"abc\";p=1"})
  void sfString_textAfterClosingQuote_rejected(String header) {
    assertRejected(header);
  }

  @Test
  void headerList_oneValue_parsed() throws Exception {
    assertThat(Admission.parseKey(List.of("\"abc\""))).isEqualTo("abc");
  }

  @Test
  void headerList_twoValues_rejected() {
    assertThatThrownBy(() -> Admission.parseKey(List.of("abc", "abc")))
        .isInstanceOf(InvalidIdempotencyKeyException.class);
  }

  @Test
  void headerList_noValue_rejected() {
    assertThatThrownBy(() -> Admission.parseKey(List.of()))
        .isInstanceOf(InvalidIdempotencyKeyException.class);
  }

  @Test
  void headerList_nullValue_rejected() {
    assertThatThrownBy(() -> Admission.parseKey(Arrays.asList((String) null)))
        .isInstanceOf(InvalidIdempotencyKeyException.class);
  }

  private static void assertRejected(String header) {
    assertThatThrownBy(() -> Admission.parseKey(header))
        .as("header <%s>", header)
        .isInstanceOf(InvalidIdempotencyKeyException.class)
        .hasMessageContaining("Idempotency-Key");
  }
}
