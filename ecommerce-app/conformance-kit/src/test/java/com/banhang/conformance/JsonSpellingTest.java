package com.banhang.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonSpellingTest {

  private static final String BODY =
      "{\"currency\":\"VND\",\"items\":[{\"sku\":\"a\\\"b\",\"quantity\":1,\"unitPrice\":100000}]}";

  @Test
  void respellings_changeTheBytes_butNotTheCanonicalForm() {
    Map<String, String> respellings = JsonSpelling.respellings(BODY);

    assertThat(respellings).containsOnlyKeys("member order", "whitespace", "1 written as 1.0");
    respellings.forEach(
        (what, text) -> {
          assertThat(text).as(what).isNotEqualTo(BODY);
          assertThat(FakeApi.canonical(text)).as(what).isEqualTo(FakeApi.canonical(BODY));
        });
    assertThat(respellings.get("member order")).startsWith("{\"items\":[{\"unitPrice\":100000,");
    assertThat(respellings.get("whitespace")).contains("\n");
    assertThat(respellings.get("1 written as 1.0")).contains("\"quantity\":1.0");
  }

  @Test
  void respellings_leaveOutWhatWouldNotChange() {
    assertThat(JsonSpelling.respellings("{\"a\":\"x\"}")).containsOnlyKeys("whitespace");
    assertThat(JsonSpelling.respellings("not json")).isEmpty();
  }

  @Test
  void wrongTypes_replacesEveryTopLevelValueWithAnotherType() {
    JsonObject object =
        JsonSpelling.object("{\"s\":\"x\",\"n\":1,\"a\":[],\"o\":{},\"b\":true,\"z\":null}")
            .orElseThrow();

    JsonObject wrong = JsonSpelling.object(JsonSpelling.wrongTypes(object)).orElseThrow();

    assertThat(wrong.keySet()).isEqualTo(object.keySet());
    for (String name : object.keySet()) {
      assertThat(wrong.get(name).getValueType())
          .as(name)
          .isNotEqualTo(object.get(name).getValueType());
    }
  }

  @Test
  void duplicateFirstMember_namesItTwice() {
    JsonObject object = JsonSpelling.object(BODY).orElseThrow();

    String twice = JsonSpelling.duplicateFirstMember(object);

    assertThat(twice).startsWith("{\"currency\":\"VND\",\"currency\":\"VND\",\"items\":");
  }

  @Test
  void withLeadingMember_keepsTheRawBytes() {
    JsonObject object = JsonSpelling.object("{\"a\":1}").orElseThrow();

    byte[] body = JsonSpelling.withLeadingMember(object, "x", new byte[] {'"', (byte) 0xFF, '"'});

    assertThat(body).containsExactly(bytes("{\"x\":\"\u00FF\",\"a\":1}"));
    assertThat(JsonSpelling.withLeadingMember(JsonSpelling.object("{}").orElseThrow(), "x", "true"))
        .isEqualTo("{\"x\":true}");
  }

  private static byte[] bytes(String latin1) {
    return latin1.getBytes(StandardCharsets.ISO_8859_1);
  }
}
