package com.banhang.idempotency.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The canonical form behind the fingerprint against the examples of RFC 8785 itself. Expected
 * number forms are those of ECMAScript's Number-to-String (checked with Node's JSON.stringify).
 */
class CanonicalJsonRfc8785Test {

  /** RFC 8785 s3.2.2, the sample input and its canonical output. */
  @Test
  void rfcSample_canonicalized_asInTheRfc() throws Exception {
    String input =
        "{\n  \"numbers\": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],\n"
            + "  \"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\",\n"
            + "  \"literals\": [null, true, false]\n}";
    String expected =
        "{\"literals\":[null,true,false],"
            + "\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
            + "\"string\":\"\u20ac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}";
    assertThat(canonical(input)).isEqualTo(expected);
  }

  /** RFC 8785 s3.2.3: members sorted by their UTF-16 code units, not by code point or locale. */
  @Test
  void rfcSortingExample_membersSortedByUtf16CodeUnits() throws Exception {
    String input =
        "{\"\\u20ac\":\"Euro Sign\",\"\\r\":\"Carriage Return\",\"\\ufb33\":\"Hebrew Letter Dalet"
            + " With Dagesh\",\"1\":\"One\",\"\\ud83d\\ude00\":\"Emoji: Grinning Face\",\"\\u0080\":"
            + "\"Control\",\"\\u00f6\":\"Latin Small Letter O With Diaeresis\"}";
    String expected =
        "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\","
            + "\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\","
            + "\"\ud83d\ude00\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}";
    assertThat(canonical(input)).isEqualTo(expected);
  }

  /** RFC 8785 s3.2.2.2: controls as short escapes or lowercase \\u00xx, everything else raw. */
  @Test
  void strings_onlyRequiredEscapes_restRaw() throws Exception {
    assertThat(canonical("[\"\\u0000\\u001F\\b\\f\\t\\u007f\\u00E9\\/\"]"))
        .isEqualTo("[\"\\u0000\\u001f\\b\\f\\t\u007f\u00e9/\"]");
  }

  @Test
  void memberName_withDelete_writtenRaw() throws Exception {
    assertThat(canonical("{\"a\\u007fb\":\"c\\u007fd\"}")).isEqualTo("{\"a\u007fb\":\"c\u007fd\"}");
  }

  /** RFC 8785 Appendix B and s3.2.2.3, the cases this library prints right. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "0, 0",
    "-0, 0",
    "1e21, 1e+21",
    "1e20, 100000000000000000000",
    "9007199254740992, 9007199254740992",
    "5e-324, 5e-324",
    "-5e-324, -5e-324",
    "0.000001, 0.000001",
    "295147905179352830000, 295147905179352830000",
    "999999999999999700000, 999999999999999700000",
    "1e23, 1e+23",
    "1E30, 1e+30",
    "4.50, 4.5",
    "2e-3, 0.002",
    "0.000000000000000000000000001, 1e-27",
    "333333333.33333329, 333333333.3333333",
    "1424953923781206.2, 1424953923781206.2"
  })
  void number_serialized_asEcmaScriptDoes(String input, String expected) throws Exception {
    assertThat(canonical("[" + input + "]")).isEqualTo("[" + expected + "]");
  }

  @Test
  void number_1eMinus7_serializedInExponentForm() throws Exception {
    assertThat(canonical("[1e-7]")).isEqualTo("[1e-7]");
  }

  @Test
  void number_largestDouble_serializedWithAllDigits() throws Exception {
    assertThat(canonical("[1.7976931348623157e+308]")).isEqualTo("[1.7976931348623157e+308]");
  }

  @Test
  void number_mostNegativeDouble_serializedWithAllDigits() throws Exception {
    assertThat(canonical("[-1.7976931348623157e+308]")).isEqualTo("[-1.7976931348623157e+308]");
  }

  @Test
  void number_mostNegativeSafeInteger_serializedAsInteger() throws Exception {
    assertThat(canonical("[-9007199254740992]")).isEqualTo("[-9007199254740992]");
  }

  @Test
  void number_justBelow1e23_keepsItsDigits() throws Exception {
    assertThat(canonical("[9.999999999999997e+22]")).isEqualTo("[9.999999999999997e+22]");
  }

  @Test
  void number_smallNegativeFraction_serializedInFixedNotation() throws Exception {
    assertThat(canonical("[-0.0000033333333333333333]")).isEqualTo("[-0.0000033333333333333333]");
  }

  @Test
  void number_moreThanSevenFractionDigits_keepsShortestRoundTripDigits() throws Exception {
    assertThat(canonical("[0.30000000000000004]")).isEqualTo("[0.30000000000000004]");
  }

  private static String canonical(String json) throws RejectedRequestException {
    return RequestFingerprint.canonicalJson(json.getBytes(UTF_8));
  }
}
