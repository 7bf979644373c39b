package com.banhang.idempotency.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.idempotency.internal.RandomJson.Lit;
import com.banhang.idempotency.internal.RandomJson.Num;
import com.banhang.idempotency.internal.RandomJson.Obj;
import com.banhang.idempotency.internal.RandomJson.Str;
import com.banhang.idempotency.internal.RandomJson.Style;
import com.banhang.idempotency.internal.RandomJson.Value;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * docs/idempotency.md over generated documents: spellings of one document share a fingerprint, and
 * every single change of meaning changes it. Each case is generated from its own seed, named in the
 * failure message, so that a failure reproduces with {@code new RandomJson(seed)}.
 */
class RequestFingerprintPropertiesTest {

  private static final long FIRST_SEED = 20_261_130L;
  private static final int CASES = 400;
  private static final String OPERATION = "orders.create";

  @Test
  void membersReordered_sameFingerprint() {
    assertSameFingerprint(new Style(true, false, false, false));
  }

  @Test
  void insignificantWhitespaceAdded_sameFingerprint() {
    assertSameFingerprint(new Style(false, true, false, false));
  }

  @Test
  void numbersRespelled_sameFingerprint() {
    assertSameFingerprint(new Style(false, false, true, false));
  }

  @Test
  void stringsEscapedDifferently_sameFingerprint() {
    assertSameFingerprint(new Style(false, false, false, true));
  }

  @Test
  void everySpellingAtOnce_sameFingerprint() {
    assertSameFingerprint(Style.EVERYTHING);
  }

  @Test
  void anySpelling_anyDocument_canonicalFormAsRfc8785() {
    forEachCase(
        true,
        (json, seed) -> {
          Obj document = json.document();
          assertThat(canonical(json.write(document, Style.EVERYTHING)))
              .as("seed %d", seed)
              .isEqualTo(RandomJson.canonical(document));
        });
  }

  @Test
  void oneStringChanged_fingerprintChanges() {
    assertOneLeafChangeSeen(Str.class);
  }

  @Test
  void oneLiteralChanged_fingerprintChanges() {
    assertOneLeafChangeSeen(Lit.class);
  }

  @Test
  void oneNumberChanged_fingerprintChanges() {
    assertOneLeafChangeSeen(Num.class);
  }

  @Test
  void oneMemberAdded_fingerprintChanges() {
    forEachCase(
        true,
        (json, seed) -> {
          Obj document = json.document();
          assertDifferent(seed, json, document, json.addOneMember(document));
        });
  }

  @Test
  void oneMemberRemoved_fingerprintChanges() {
    forEachCase(
        true,
        (json, seed) -> {
          Obj document = json.document();
          Value changed = json.removeOneMember(document);
          if (changed != null) {
            assertDifferent(seed, json, document, changed);
          }
        });
  }

  @Test
  void operationChanged_fingerprintChanges() {
    forEachCase(
        true,
        (json, seed) -> {
          byte[] body = json.write(json.document(), Style.PLAIN).getBytes(UTF_8);
          String operation = json.string(8);
          String other = operation + json.string(2) + "x";
          assertThat(fingerprint(operation, params(), body))
              .as("seed %d", seed)
              .isNotEqualTo(fingerprint(other, params(), body));
        });
  }

  @Test
  void pathParameterValueOrNameChanged_fingerprintChanges() {
    forEachCase(
        true,
        (json, seed) -> {
          byte[] body = json.write(json.document(), Style.PLAIN).getBytes(UTF_8);
          String name = json.string(6);
          String value = json.string(10);
          String fingerprint = fingerprint(OPERATION, params(name, value), body);
          assertThat(fingerprint(OPERATION, params(name, value + "1"), body))
              .as("seed %d: value", seed)
              .isNotEqualTo(fingerprint);
          assertThat(fingerprint(OPERATION, params(name + "1", value), body))
              .as("seed %d: name", seed)
              .isNotEqualTo(fingerprint);
        });
  }

  private void assertSameFingerprint(Style style) {
    forEachCase(
        true,
        (json, seed) -> {
          Obj document = json.document();
          String plain = json.write(document, Style.PLAIN);
          String respelled = json.write(document, style);
          assertThat(fingerprint(respelled))
              .as("seed %d:%n%s%nvs%n%s", seed, plain, respelled)
              .isEqualTo(fingerprint(plain));
        });
  }

  private void assertOneLeafChangeSeen(Class<? extends Value> kind) {
    forEachCase(
        true,
        (json, seed) -> {
          Obj document = json.document();
          Value changed = json.changeOneLeaf(document, kind);
          if (changed != null) {
            assertDifferent(seed, json, document, changed);
          }
        });
  }

  private static void assertDifferent(long seed, RandomJson json, Value document, Value changed) {
    String before = json.write(document, Style.PLAIN);
    String after = json.write(changed, Style.PLAIN);
    assertThat(fingerprint(after))
        .as("seed %d: same fingerprint for%n%s%nand%n%s", seed, before, after)
        .isNotEqualTo(fingerprint(before));
  }

  private static void forEachCase(boolean negativeNumbers, BiConsumer<RandomJson, Long> check) {
    for (long seed = FIRST_SEED; seed < FIRST_SEED + CASES; seed++) {
      check.accept(new RandomJson(seed, negativeNumbers), seed);
    }
  }

  private static String fingerprint(String body) {
    return fingerprint(OPERATION, params(), body.getBytes(UTF_8));
  }

  private static String fingerprint(
      String operation, SortedMap<String, String> params, byte[] body) {
    try {
      return RequestFingerprint.of(operation, params, body);
    } catch (RejectedRequestException e) {
      throw new AssertionError("rejected a valid body: " + new String(body, UTF_8), e);
    }
  }

  private static String canonical(String body) {
    try {
      return RequestFingerprint.canonicalJson(body.getBytes(UTF_8));
    } catch (RejectedRequestException e) {
      throw new AssertionError("rejected a valid body: " + body, e);
    }
  }

  private static SortedMap<String, String> params(String... nameValues) {
    SortedMap<String, String> params = new TreeMap<>();
    for (int i = 0; i < nameValues.length; i += 2) {
      params.put(nameValues[i], nameValues[i + 1]);
    }
    return params;
  }
}
