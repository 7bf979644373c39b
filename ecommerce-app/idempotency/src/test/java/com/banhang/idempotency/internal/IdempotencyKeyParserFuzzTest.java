package com.banhang.idempotency.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.ArrayList;
import java.util.List;

/**
 * Any header value either yields a key that keeps the rules of docs/idempotency.md, and is exactly
 * what the header says, or is refused with {@link InvalidIdempotencyKeyException}; nothing else
 * escapes. Without JAZZER_FUZZ this replays the inputs in IdempotencyKeyParserFuzzTestInputs.
 */
class IdempotencyKeyParserFuzzTest {

  @FuzzTest
  void parse_anyHeaderValue_validKeyOrRejected(FuzzedDataProvider data) {
    String header = data.consumeRemainingAsString();
    String key;
    try {
      key = Admission.parseKey(header);
    } catch (InvalidIdempotencyKeyException e) {
      return;
    }
    assertValidKey(key);
    String field = stripOws(header);
    if (field.startsWith("\"")) {
      assertThat(IdempotencyKeyParserPropertiesTest.quote(key)).isEqualTo(field);
    } else {
      assertThat(key).isEqualTo(field);
    }
  }

  @FuzzTest
  void parse_anyListOfHeaderValues_validKeyOrRejected(FuzzedDataProvider data) {
    int count = data.consumeInt(0, 3);
    List<String> values = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      values.add(data.consumeString(300));
    }
    String key;
    try {
      key = Admission.parseKey(values);
    } catch (InvalidIdempotencyKeyException e) {
      return;
    }
    assertThat(values).hasSize(1);
    assertValidKey(key);
  }

  private static void assertValidKey(String key) {
    assertThat(key.length()).isBetween(1, 255);
    assertThat(key.chars()).allMatch(c -> c >= 0x21 && c <= 0x7E);
  }

  private static String stripOws(String value) {
    int start = 0;
    int end = value.length();
    while (start < end && (value.charAt(start) == ' ' || value.charAt(start) == '\t')) {
      start++;
    }
    while (end > start && (value.charAt(end - 1) == ' ' || value.charAt(end - 1) == '\t')) {
      end--;
    }
    return value.substring(start, end);
  }
}
