package com.banhang.idempotency.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Examples of docs/idempotency.md: what the fingerprint ignores, what it sees, and what it refuses.
 */
class RequestFingerprintTest {

  private static final String ORDER =
      "{\"currency\":\"VND\",\"items\":[{\"sku\":\"SKU-1\",\"quantity\":2,\"unitPrice\":625000}]}";

  @Test
  void anyBody_fingerprint_is64LowercaseHex() throws Exception {
    assertThat(fingerprint(ORDER)).matches("[0-9a-f]{64}");
  }

  @Test
  void sameRequest_twice_sameFingerprint() throws Exception {
    assertThat(fingerprint(ORDER)).isEqualTo(fingerprint(ORDER));
  }

  @Test
  void members_reordered_sameFingerprint() throws Exception {
    String reordered =
        "{\"items\":[{\"unitPrice\":625000,\"sku\":\"SKU-1\",\"quantity\":2}],\"currency\":\"VND\"}";
    assertThat(fingerprint(reordered)).isEqualTo(fingerprint(ORDER));
  }

  @Test
  void insignificantWhitespace_added_sameFingerprint() throws Exception {
    String spaced =
        " {\n\t\"currency\" : \"VND\" ,\r\n \"items\" : [ { \"sku\":\"SKU-1\", \"quantity\" : 2 ,"
            + " \"unitPrice\":625000 } ]\n}\n";
    assertThat(fingerprint(spaced)).isEqualTo(fingerprint(ORDER));
  }

  @ParameterizedTest
  @ValueSource(strings = {"1.0", "1e0", "10e-1", "1E0", "1.000", "0.1e1", "1e+0", "100E-2"})
  void numberSpelledDifferently_sameValue_sameFingerprint(String one) throws Exception {
    assertThat(fingerprint("{\"n\":" + one + "}")).isEqualTo(fingerprint("{\"n\":1}"));
  }

  @Test
  void minusZero_sameFingerprintAsZero() throws Exception {
    assertThat(fingerprint("{\"n\":-0}")).isEqualTo(fingerprint("{\"n\":0}"));
  }

  @Test
  void unicodeEscape_sameFingerprintAsCharacter() throws Exception {
    assertThat(fingerprint("{\"s\":\"\\u0041\\u00e9\\ud83d\\ude00\"}"))
        .isEqualTo(fingerprint("{\"s\":\"A\u00e9\ud83d\ude00\"}"));
  }

  @Test
  void escapedSolidus_sameFingerprintAsSolidus() throws Exception {
    assertThat(fingerprint("{\"\\/p\":\"a\\/b\"}")).isEqualTo(fingerprint("{\"/p\":\"a/b\"}"));
  }

  @Test
  void operation_changed_fingerprintChanges() throws Exception {
    assertThat(RequestFingerprint.of("payments.charge", params(), ORDER.getBytes(UTF_8)))
        .isNotEqualTo(RequestFingerprint.of("orders.create", params(), ORDER.getBytes(UTF_8)));
  }

  @Test
  void pathParameterValue_changed_fingerprintChanges() throws Exception {
    assertThat(fingerprint(params("orderId", "o-1"), ORDER))
        .isNotEqualTo(fingerprint(params("orderId", "o-2"), ORDER));
  }

  @Test
  void pathParameterName_changed_fingerprintChanges() throws Exception {
    assertThat(fingerprint(params("orderId", "o-1"), ORDER))
        .isNotEqualTo(fingerprint(params("paymentId", "o-1"), ORDER));
  }

  @Test
  void pathParameter_added_fingerprintChanges() throws Exception {
    assertThat(fingerprint(params("orderId", "o-1"), ORDER))
        .isNotEqualTo(fingerprint(params(), ORDER));
  }

  @Test
  void partsWithTheSameConcatenation_differentFingerprints() throws Exception {
    assertThat(fingerprint(params("ab", "c"), ORDER))
        .isNotEqualTo(fingerprint(params("a", "bc"), ORDER));
    assertThat(RequestFingerprint.of("ab", params("c", "d"), new byte[0]))
        .isNotEqualTo(RequestFingerprint.of("a", params("bc", "d"), new byte[0]));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"a\":1}|{\"a\":2}",
        "{\"a\":\"x\"}|{\"a\":\"X\"}",
        "{\"a\":true}|{\"a\":false}",
        "{\"a\":null}|{\"a\":false}",
        "{\"a\":1}|{\"a\":\"1\"}",
        "{\"a\":[1,2]}|{\"a\":[2,1]}",
        "{\"a\":{}}|{\"a\":[]}",
        "{\"a\":1}|{\"a\":1,\"b\":1}",
        "{\"a\":1,\"b\":{\"c\":1}}|{\"a\":1,\"b\":{}}",
        "{\"a\":1}|{\"A\":1}",
        "{\"a\":0.5}|{\"a\":0.25}",
        "{}|[]"
      })
  void bodies_differentMeaning_differentFingerprints(String one, String other) throws Exception {
    assertThat(fingerprint(one)).isNotEqualTo(fingerprint(other));
  }

  @Test
  void emptyBody_allowed_andDistinctFromEmptyObject() throws Exception {
    String empty = RequestFingerprint.of("orders.create", params(), new byte[0]);
    assertThat(empty).matches("[0-9a-f]{64}").isNotEqualTo(fingerprint("{}"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"a\":1,\"a\":1}",
        "{\"a\":1,\"b\":2,\"a\":3}",
        "{\"o\":{\"x\":1,\"x\":2}}",
        "[{\"x\":1},{\"y\":1,\"y\":1}]",
        "{\"a\":1,\"\\u0061\":2}"
      })
  void duplicateMemberName_anywhere_rejectedAsDuplicate(String body) {
    assertRejected(body, "duplicate-json-member");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{",
        "{\"a\":}",
        "{\"a\":1,}",
        "[1,]",
        "{'a':1}",
        "{\"a\":01}",
        "{\"a\":NaN}",
        "nul",
        "   ",
        "{\"a\":\"\u0001\"}",
        "{\"a\":\"\\x\"}"
      })
  void brokenJson_rejectedAsMalformed(String body) {
    assertRejected(body, "malformed-request-body");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"{\"a\":1} x", "{\"a\":1}{}", "{\"a\":1}}", "[1]]", "{\"a\":1} // note", "1 2"})
  void trailingTextAfterTheValue_rejectedAsMalformed(String body) {
    assertRejected(body, "malformed-request-body");
  }

  /** Found by RequestFingerprintFuzzTest: an exponent beyond what a BigDecimal holds. */
  @ParameterizedTest
  @ValueSource(
      strings = {"{\"n\":1e99999999999}", "{\"n\":1e-2147483648}", "[1e-445678901234567890]"})
  void numberWithExponentBeyondRange_rejectedAsMalformed(String body) {
    assertRejected(body, "malformed-request-body");
  }

  /** RFC 8785 s3.2.2.2 and RFC 7493 s2.1: lone surrogates must make canonicalization fail. */
  @ParameterizedTest
  @ValueSource(strings = {"{\"a\":\"\\ud800\"}", "{\"a\":\"x\\udc00\"}", "{\"\\ud83d\":1}"})
  void loneSurrogateEscape_rejectedAsMalformed(String body) {
    assertRejected(body, "malformed-request-body");
  }

  /** RFC 7493 s2.1: I-JSON text is UTF-8; bytes that are not must not be guessed at. */
  @Test
  void invalidUtf8Bytes_rejectedAsMalformed() {
    byte[] body = {'{', '"', 'a', '"', ':', '"', (byte) 0xFF, '"', '}'};
    assertThatThrownBy(() -> RequestFingerprint.of("orders.create", params(), body))
        .as("a body that is not UTF-8")
        .isInstanceOfSatisfying(
            RejectedRequestException.class,
            e -> assertThat(e.problem().slug()).isEqualTo("malformed-request-body"));
  }

  /**
   * Numbers whose values differ must not share a fingerprint (RFC 8785 s3.2.2.3: IEEE-754 values).
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "-15|-24",
        "-1.5|-2",
        "0.12345678|0.12345681",
        "0.00000001|0",
        "1.5e300|2e300",
        "0.30000000000000004|0.3"
      })
  void numbers_differentValues_differentFingerprints(String one, String other) throws Exception {
    assertThat(fingerprint("{\"n\":" + one + "}"))
        .as("%s and %s share a fingerprint", one, other)
        .isNotEqualTo(fingerprint("{\"n\":" + other + "}"));
  }

  @Test
  void numberOfThousandsOfDigits_isMalformed_notAnInternalError() {
    // JSON-P refuses to read a number this long with an UnsupportedOperationException (a 500 in
    // the bad-input corpus of the HTTP suite, before it was caught).
    assertRejected("{\"amount\":" + "9".repeat(5000) + "}", "malformed-request-body");
  }

  private static void assertRejected(String body, String problemType) {
    assertThatThrownBy(() -> fingerprint(body))
        .as("body <%s>", body)
        .isInstanceOfSatisfying(
            RejectedRequestException.class,
            e -> {
              assertThat(e.problem().status()).isEqualTo(400);
              assertThat(e.problem().slug()).isEqualTo(problemType);
            });
  }

  private static String fingerprint(String body) throws RejectedRequestException {
    return fingerprint(params(), body);
  }

  private static String fingerprint(SortedMap<String, String> params, String body)
      throws RejectedRequestException {
    return RequestFingerprint.of("orders.create", params, body.getBytes(UTF_8));
  }

  private static SortedMap<String, String> params(String... nameValues) {
    SortedMap<String, String> params = new TreeMap<>();
    for (int i = 0; i < nameValues.length; i += 2) {
      params.put(nameValues[i], nameValues[i + 1]);
    }
    return params;
  }
}
