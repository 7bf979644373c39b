package com.banhang.gateway.sandbox.charge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ChargeRequestReaderTest {

  private static final ValidatorFactory VALIDATION = Validation.buildDefaultValidatorFactory();

  private final ChargeRequestReader reader = new ChargeRequestReader(VALIDATION.getValidator());

  @AfterAll
  static void closeValidation() {
    VALIDATION.close();
  }

  @Test
  void readsAValidRequest() {
    ChargeRequest request =
        reader.read(
            """
                {"amount": 1250000, "currency": "VND", "orderReference": "order-10063",
                 "paymentMethod": "pm_card_ok", "description": "unknown members are ignored"}""");

    assertThat(request.getAmount()).isEqualTo(1_250_000L);
    assertThat(request.getCurrency()).isEqualTo("VND");
    assertThat(request.getOrderReference()).isEqualTo("order-10063");
    assertThat(request.getPaymentMethod()).isEqualTo("pm_card_ok");
  }

  @Test
  void acceptsAWholeAmountWrittenWithAFraction() {
    assertThat(reader.read(body("1.0", "\"VND\"", "\"o\"", "\"pm_card_ok\"")).getAmount())
        .isEqualTo(1L);
  }

  @Test
  void acceptsAnOrderReferenceOf128Characters() {
    String reference = "r".repeat(128);

    assertThat(
            reader
                .read(body("1", "\"VND\"", "\"" + reference + "\"", "\"pm_card_ok\""))
                .getOrderReference())
        .isEqualTo(reference);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "zero amount            | 0                   | \"VND\" | \"o\"    | \"pm_card_ok\"       | amount: must be greater than 0",
        "negative amount        | -5                  | \"VND\" | \"o\"    | \"pm_card_ok\"       | amount: must be greater than 0",
        "fractional amount      | 1.5                 | \"VND\" | \"o\"    | \"pm_card_ok\"       | amount: must be a whole number",
        "amount as string       | \"100\"             | \"VND\" | \"o\"    | \"pm_card_ok\"       | amount: must be an integer",
        "amount beyond 64 bits  | 9223372036854775808 | \"VND\" | \"o\"    | \"pm_card_ok\"       | amount: must be a whole number",
        "missing amount         | null                | \"VND\" | \"o\"    | \"pm_card_ok\"       | amount: must not be null",
        "lower-case currency    | 1                   | \"vnd\" | \"o\"    | \"pm_card_ok\"       | currency: must be an ISO 4217",
        "currency as number     | 1                   | 704     | \"o\"    | \"pm_card_ok\"       | currency: must be a string",
        "empty order reference  | 1                   | \"VND\" | \"\"     | \"pm_card_ok\"       | orderReference: size must be between 1 and 128",
        "not a test card        | 1                   | \"VND\" | \"o\"    | \"4242424242424242\" | paymentMethod: must be a test card token",
        "bare card prefix       | 1                   | \"VND\" | \"o\"    | \"pm_card_\"         | paymentMethod: must be a test card token",
      })
  void refusesABrokenField(
      String name,
      String amount,
      String currency,
      String reference,
      String method,
      String message) {
    assertThatThrownBy(() -> reader.read(body(amount, currency, reference, method)))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> {
              assertThat(e.errorCode()).isEqualTo("invalid_request");
              assertThat(e.getMessage()).contains(message);
            });
  }

  @Test
  void refusesAnOrderReferenceOver128Characters() {
    assertThatThrownBy(
            () ->
                reader.read(body("1", "\"VND\"", "\"" + "r".repeat(129) + "\"", "\"pm_card_ok\"")))
        .hasMessageContaining("orderReference: size must be between 1 and 128");
  }

  @Test
  void namesEveryBrokenFieldInOneSortedMessage() {
    assertThatThrownBy(() -> reader.read("{}"))
        .hasMessage(
            "amount: must not be null; currency: must not be null; "
                + "orderReference: must not be null; paymentMethod: must not be null");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''",
        "'   '",
        "not json",
        "[1, 2]",
        "\"a string\"",
        "{\"amount\": 1,",
      })
  void refusesABodyThatIsNotAJsonObject(String body) {
    assertThatThrownBy(() -> reader.read(body))
        .isInstanceOfSatisfying(
            InvalidRequestException.class,
            e -> assertThat(e.errorCode()).isEqualTo("invalid_request"));
  }

  private static String body(String amount, String currency, String reference, String method) {
    return "{\"amount\": "
        + amount
        + ", \"currency\": "
        + currency
        + ", \"orderReference\": "
        + reference
        + ", \"paymentMethod\": "
        + method
        + "}";
  }
}
