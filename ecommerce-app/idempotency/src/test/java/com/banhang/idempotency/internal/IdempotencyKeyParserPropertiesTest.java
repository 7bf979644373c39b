package com.banhang.idempotency.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.strings;

import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Properties of docs/idempotency.md over generated keys (QuickTheories, fixed seed: a failure names
 * its shrunk example and reproduces on every run).
 */
class IdempotencyKeyParserPropertiesTest {

  private static final long SEED = 0x1DE4_9070_3EL;

  /** 1 to 255 characters of 0x21-0x7E: exactly the valid keys. */
  private static final Gen<String> VALID_KEYS =
      strings().betweenCodePoints(0x21, 0x7E).ofLengthBetween(1, 255);

  /**
   * A bare token cannot start with DQUOTE: that character announces the sf-string form. Such keys
   * are still valid, and are sent quoted.
   */
  private static final Gen<String> BARE_KEYS = VALID_KEYS.assuming(k -> !k.startsWith("\""));

  private static final Gen<String> OWS =
      strings()
          .betweenCodePoints(0, 1)
          .ofLengthBetween(0, 3)
          .map(s -> s.replace('\u0000', ' ').replace('\u0001', '\t'));

  /**
   * Every UTF-16 unit that is not printable ASCII: controls, space, DEL, Latin-1, BMP, surrogates.
   */
  private static final Gen<Character> FORBIDDEN_CHARS =
      Generate.oneOf(
          Generate.characters(0x00, 0x20),
          Generate.characters(0x7F, 0xFF),
          Generate.characters(0x100, 0xFFFF));

  private static QuickTheory theory() {
    return qt().withFixedSeed(SEED).withExamples(3000);
  }

  @Test
  void validKey_sentBare_returnedUnchanged() {
    theory().forAll(BARE_KEYS).checkAssert(key -> assertThat(parse(key)).isEqualTo(key));
  }

  @Test
  void validKey_sentAsSfString_returnedUnquoted() {
    theory().forAll(VALID_KEYS).checkAssert(key -> assertThat(parse(quote(key))).isEqualTo(key));
  }

  @Test
  void validKey_surroundedByOptionalWhitespace_returnedWithoutIt() {
    theory()
        .forAll(BARE_KEYS, OWS, OWS, Generate.booleans())
        .checkAssert(
            (key, before, after, quoted) ->
                assertThat(parse(before + (quoted ? quote(key) : key) + after)).isEqualTo(key));
  }

  @Test
  void keyWithForbiddenCharacterInside_sentBare_rejected() {
    theory()
        .forAll(
            VALID_KEYS.assuming(k -> k.length() >= 2 && !k.startsWith("\"")),
            FORBIDDEN_CHARS,
            integers().between(1, 254))
        .checkAssert(
            (key, bad, at) -> {
              int position = Math.min(at, key.length() - 1);
              assertRejected(key.substring(0, position) + bad + key.substring(position));
            });
  }

  @Test
  void keyWithForbiddenCharacterAnywhere_sentAsSfString_rejected() {
    theory()
        .forAll(
            VALID_KEYS.assuming(k -> k.length() < 255), FORBIDDEN_CHARS, integers().between(0, 254))
        .checkAssert(
            (key, bad, at) -> {
              int position = Math.min(at, key.length());
              assertRejected(quote(key.substring(0, position) + bad + key.substring(position)));
            });
  }

  @Test
  void keyLongerThan255_eitherForm_rejected() {
    theory()
        .forAll(
            strings()
                .betweenCodePoints(0x21, 0x7E)
                .ofLengthBetween(256, 600)
                .assuming(k -> !k.startsWith("\"")))
        .checkAssert(
            key -> {
              assertRejected(key);
              assertRejected(quote(key));
            });
  }

  @Test
  void sfString_anyTextAfterClosingQuote_rejected() {
    theory()
        .forAll(VALID_KEYS, strings().betweenCodePoints(0x21, 0x7E).ofLengthBetween(1, 10))
        .checkAssert((key, trailer) -> assertRejected(quote(key) + trailer));
  }

  /** RFC 9651 s4.1.6: DQUOTE, the characters with DQUOTE and backslash escaped, DQUOTE. */
  static String quote(String key) {
    return "\"" + key.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static String parse(String header) {
    try {
      return Admission.parseKey(header);
    } catch (InvalidIdempotencyKeyException e) {
      throw new AssertionError("rejected <" + header + ">: " + e.getMessage(), e);
    }
  }

  private static void assertRejected(String header) {
    assertThatThrownBy(() -> Admission.parseKey(header))
        .as("header <%s>", header)
        .isInstanceOf(InvalidIdempotencyKeyException.class);
  }
}
