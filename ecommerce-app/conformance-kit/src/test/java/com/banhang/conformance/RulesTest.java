package com.banhang.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The rule list itself and the small judgements the rules share. */
class RulesTest {

  @Test
  void everyRule_hasAUniqueId_aText_andASource() {
    List<Rule> rules = Rules.all();
    Set<String> ids = rules.stream().map(Rule::id).collect(Collectors.toSet());

    assertThat(ids).hasSize(rules.size());
    assertThat(rules)
        .allSatisfy(
            r -> {
              assertThat(r.id()).matches("[a-z0-9]+(\\.[a-z0-9-]+)+");
              assertThat(r.text()).isNotBlank();
              assertThat(r.source()).containsAnyOf("draft §", "contract.md §");
            });
  }

  @Test
  void httpDate_isImfFixdateOnly() {
    assertThat(Rules.httpDate("Wed, 02 Dec 2026 10:00:00 GMT"))
        .contains(Instant.parse("2026-12-02T10:00:00Z"));
    assertThat(Rules.httpDate("2026-12-02T10:00:00Z")).isEmpty();
    assertThat(Rules.httpDate("Wednesday, 02-Dec-26 10:00:00 GMT")).isEmpty();
    assertThat(Rules.httpDate("Thu, 02 Dec 2026 10:00:00 GMT")).as("wrong weekday").isEmpty();
  }

  @Test
  void retryAfter_isSecondsOrAnHttpDate() {
    assertThat(Rules.retryAfter("1")).isTrue();
    assertThat(Rules.retryAfter(" 120 ")).isTrue();
    assertThat(Rules.retryAfter("Wed, 02 Dec 2026 10:00:00 GMT")).isTrue();
    assertThat(Rules.retryAfter("-1")).isFalse();
    assertThat(Rules.retryAfter("soon")).isFalse();
  }

  @Test
  void keyOfLength_isExactlyThatLong_andFresh() {
    for (int length : new int[] {1, 31, 32, 33, 255, 256}) {
      String key = Rules.keyOfLength(length);
      assertThat(key).hasSize(length).matches("[\\x21-\\x7E]+");
    }
    assertThat(Rules.keyOfLength(255)).isNotEqualTo(Rules.keyOfLength(255));
  }

  @Test
  void printable_showsControlCharacters_andCutsLongKeys() {
    assertThat(Rules.printable("a\u0001b\tc")).isEqualTo("'a\\u0001b\\u0009c'");
    assertThat(Rules.printable("k".repeat(256))).endsWith("(256 chars)").hasSizeLessThan(70);
  }

  @Test
  void sameAnswer_isStatusAndBodyBytes() {
    Answer a = new Answer(201, Map.of(), bytes("{\"id\":1}"));

    assertThat(Rules.sameAnswer(a, new Answer(201, Map.of("X", List.of("y")), bytes("{\"id\":1}"))))
        .isTrue();
    assertThat(Rules.sameAnswer(a, new Answer(200, Map.of(), bytes("{\"id\":1}")))).isFalse();
    assertThat(Rules.sameAnswer(a, new Answer(201, Map.of(), bytes("{\"id\": 1}")))).isFalse();
  }

  @Test
  void aProblemDocument_isItsMediaType_aJsonObject_andAMatchingStatus() {
    Map<String, List<String>> problemJson =
        Map.of("Content-Type", List.of("application/problem+json"));

    assertThat(Problems.notAProblem(new Answer(400, problemJson, bytes("{\"status\":400}"))))
        .isEmpty();
    assertThat(Problems.notAProblem(new Answer(400, problemJson, bytes("{\"status\":500}"))))
        .get()
        .asString()
        .contains("status");
    assertThat(Problems.notAProblem(new Answer(400, problemJson, bytes("[1]"))))
        .get()
        .asString()
        .contains("not a JSON object");
    assertThat(
            Problems.notAProblem(
                new Answer(400, Map.of("Content-Type", List.of("application/json")), bytes("{}"))))
        .get()
        .asString()
        .contains("Content-Type");
    assertThat(Problems.notAProblem(new Answer(500, Map.of(), bytes("<html></html>"))))
        .get()
        .asString()
        .contains("HTML");
  }

  @Test
  void problemType_endsWithTheSlugsAnchor() {
    Answer answer =
        new Answer(
            422,
            Map.of(),
            bytes("{\"type\":\"https://x.test/docs/problems.md#idempotency-key-reused\"}"));

    assertThat(Problems.wrongType(answer, "idempotency-key-reused")).isEmpty();
    assertThat(Problems.wrongType(answer, "idempotency-key-in-use")).isPresent();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
