package com.banhang.shop.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProblemTest {

  private static Problem parse(int status, String body) {
    return Problem.parse(status, body.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void readsTheMembersOfRfc9457AndKeepsTheOthersAsExtensions() {
    Problem problem =
        parse(
            402,
            """
            {"type": "https://github.com/banhang/shop/blob/main/docs/problems.md#payment-declined",
             "title": "Payment declined", "status": 402, "detail": "card declined",
             "paymentId": "p-1", "orderId": "o-1", "attempt": 2, "errors": [{"field": "amount"}]}
            """);

    assertThat(problem.type())
        .isEqualTo("https://github.com/banhang/shop/blob/main/docs/problems.md#payment-declined");
    assertThat(problem.slug()).isEqualTo("payment-declined");
    assertThat(problem.title()).isEqualTo("Payment declined");
    assertThat(problem.status()).isEqualTo(402);
    assertThat(problem.detail()).isEqualTo("card declined");
    assertThat(problem.extensions())
        .containsExactly(
            java.util.Map.entry("paymentId", "p-1"),
            java.util.Map.entry("orderId", "o-1"),
            java.util.Map.entry("attempt", "2"),
            java.util.Map.entry("errors", "[{\"field\":\"amount\"}]"));
    assertThatThrownBy(() -> problem.extensions().put("x", "y"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void theStatusIsTheAnswersNotTheDocuments() {
    assertThat(parse(409, "{\"type\":\"t#x\",\"status\":400}").status()).isEqualTo(409);
  }

  @Test
  void aTypeWithoutAFragmentIsItsOwnSlug() {
    assertThat(parse(400, "{\"type\":\"urn:problem:odd\"}").slug()).isEqualTo("urn:problem:odd");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "<html><body>Bad gateway</body></html>",
        "",
        "[1, 2]",
        "{\"type\": 7, \"title\": false}",
        "{\"type\": \"cut sh"
      })
  void aBodyThatIsNotAProblemIsAnUntypedProblemWithTheAnswersStatus(String body) {
    Problem problem = parse(502, body);

    assertThat(problem.type()).isEqualTo("about:blank");
    assertThat(problem.status()).isEqualTo(502);
    assertThat(problem.title()).isNull();
  }
}
