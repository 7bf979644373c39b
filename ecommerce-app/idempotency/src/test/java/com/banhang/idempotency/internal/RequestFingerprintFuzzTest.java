package com.banhang.idempotency.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Any request either gets a fingerprint (64 lowercase hex digits, the same every time) or is
 * refused with a 400 {@link RejectedRequestException}; nothing else escapes. Without JAZZER_FUZZ
 * this replays the inputs in RequestFingerprintFuzzTestInputs.
 */
class RequestFingerprintFuzzTest {

  /**
   * Input layout, for hand-made seeds: the body, then the operation and each path parameter name
   * and value (each ended by a backslash and another character), then one byte for the parameter
   * count and two bytes for the body length (low byte first) at the very end.
   */
  @FuzzTest
  void of_anyRequest_hexFingerprintOrRejected(FuzzedDataProvider data) throws Exception {
    int bodyLength = data.consumeInt(0, 4096);
    int parameterCount = data.consumeInt(0, 3);
    byte[] body = data.consumeBytes(bodyLength);
    String operation = data.consumeString(40);
    SortedMap<String, String> parameters = new TreeMap<>();
    for (int i = 0; i < parameterCount; i++) {
      parameters.put(data.consumeString(20), data.consumeString(40));
    }
    assertFingerprintedOrRejected(operation, parameters, body);
  }

  /** The body alone, for seeds that are plain JSON files. */
  @FuzzTest
  void of_anyBody_hexFingerprintOrRejected(byte[] body) throws Exception {
    assertFingerprintedOrRejected("orders.create", new TreeMap<>(), body);
  }

  /**
   * Under small limits, whatever is accepted nests no deeper and is no larger than allowed, and
   * whatever is refused is a 400 or a 413 problem.
   */
  @FuzzTest
  void of_anyBodyUnderSmallLimits_withinTheLimitsOrRefused(byte[] body) {
    RequestFingerprint.Limits limits = new RequestFingerprint.Limits(4, 512);
    String canonical;
    try {
      canonical = RequestFingerprint.canonicalJson(body, limits);
    } catch (RejectedRequestException e) {
      assertThat(e.problem().status()).isIn(400, 413);
      return;
    }
    assertThat(body.length).isLessThanOrEqualTo(512);
    assertThat(depth(canonical)).isLessThanOrEqualTo(4);
  }

  /** The deepest nesting of arrays and objects in canonical JSON, outside strings. */
  private static int depth(String json) {
    int depth = 0;
    int max = 0;
    boolean inString = false;
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '[' || c == '{') {
        max = Math.max(max, ++depth);
      } else if (c == ']' || c == '}') {
        depth--;
      }
    }
    return max;
  }

  /** Whatever is accepted has a canonical form that is its own canonical form. */
  @FuzzTest
  void canonicalJson_anyAcceptedBody_isAFixedPoint(byte[] body) throws Exception {
    String canonical;
    try {
      canonical = RequestFingerprint.canonicalJson(body);
    } catch (RejectedRequestException e) {
      return;
    }
    assertThat(RequestFingerprint.canonicalJson(canonical.getBytes(UTF_8))).isEqualTo(canonical);
  }

  private static void assertFingerprintedOrRejected(
      String operation, SortedMap<String, String> parameters, byte[] body)
      throws RejectedRequestException {
    String fingerprint;
    try {
      fingerprint = RequestFingerprint.of(operation, parameters, body);
    } catch (RejectedRequestException e) {
      assertThat(e.problem().status()).isEqualTo(400);
      assertThat(e.problem().slug())
          .isIn("malformed-request-body", "duplicate-json-member", "json-nesting-too-deep");
      assertThatThrownBy(
              () -> RequestFingerprint.of(operation, new TreeMap<>(parameters), body.clone()))
          .isInstanceOfSatisfying(
              RejectedRequestException.class,
              again -> assertThat(again.problem().slug()).isEqualTo(e.problem().slug()));
      return;
    }
    assertThat(fingerprint).matches("[0-9a-f]{64}");
    assertThat(RequestFingerprint.of(operation, new TreeMap<>(parameters), body.clone()))
        .isEqualTo(fingerprint);
  }
}
