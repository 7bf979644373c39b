package it.com.banhang.shop;

import static it.com.banhang.shop.Payments.newOrder;
import static it.com.banhang.shop.Payments.pay;
import static it.com.banhang.shop.ShopApi.newKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A charge planted at the gateway under a payment's gateway key (docs/payments.md,
 * "Reconciliation"): reconciliation finds it by key, sees that it is not the payment's, and leaves
 * the payment to an operator instead of capturing it. The attacker here reads the gateway key from
 * the shop's database, which a client cannot do: it cannot compute the key either.
 */
@SameOnEveryDatabase
class ForgedChargeIT {

  private static final String CHARGE = "payments.charge";

  @AfterEach
  void noFaults() {
    Sandbox.noFaults();
  }

  /** A payment whose request was lost before the processor: unknown outcome, no charge. */
  private static String unknownPaymentWithoutCharge(String orderId, String key) {
    Sandbox.faults("{\"loseRequestProbability\":1,\"dropMode\":\"GATEWAY_TIMEOUT\"}");
    Response first = pay("alice", orderId, key, "pm_card_ok");
    assertThat(first.statusCode()).isEqualTo(504);
    assertThat((String) first.path("type")).endsWith("#payment-outcome-unknown");
    assertThat(Sandbox.charges(orderId)).isZero();
    Sandbox.noFaults();
    String gatewayKey =
        ShopDatabase.text(
            "SELECT gateway_key FROM payment WHERE tenant_id = ? AND idempotency_key = ?",
            "alice",
            key);
    assertThat(gatewayKey).matches("banhang_[0-9a-f]{48}");
    return gatewayKey;
  }

  private static String paymentStatus(String key) {
    return ShopDatabase.text(
        "SELECT status FROM payment WHERE tenant_id = ? AND idempotency_key = ?", "alice", key);
  }

  private static String orderStatus(String orderId) {
    return ShopDatabase.text("SELECT status FROM shop_order WHERE id = ?", orderId);
  }

  @Test
  void aChargeOfOneUnitPlantedUnderTheGatewayKey_isNotCaptured_andThePaymentGoesToTheOperator() {
    String orderId = newOrder("alice");
    String key = newKey();
    String gatewayKey = unknownPaymentWithoutCharge(orderId, key);

    Response planted = Sandbox.charge(gatewayKey, 1, orderId);
    assertThat(planted.statusCode()).isEqualTo(201);
    String plantedId = planted.path("id");

    Map<String, Integer> report = Payments.reconcileNowReport();
    assertThat(report.get("NEEDS_OPERATOR")).isPositive();

    assertThat(paymentStatus(key)).isEqualTo("PENDING");
    assertThat(orderStatus(orderId)).isNotEqualTo("PAID");
    assertThat(
            ShopDatabase.text(
                "SELECT last_check FROM idempotency_record"
                    + " WHERE tenant_id = ? AND operation = ? AND idempotency_key = ?",
                "alice",
                CHARGE,
                key))
        .isEqualTo("NEEDS_OPERATOR");
    assertThat(
            ShopDatabase.text(
                "SELECT last_check_detail FROM idempotency_record"
                    + " WHERE tenant_id = ? AND operation = ? AND idempotency_key = ?",
                "alice",
                CHARGE,
                key))
        .contains(plantedId)
        .contains("its amount is 1,");
    // The customer's retry is still told to wait: nothing was recorded as paid.
    Response retry = pay("alice", orderId, key, "pm_card_ok");
    assertThat(retry.statusCode()).isEqualTo(409);
    assertThat((String) retry.path("type")).endsWith("#payment-outcome-unknown");
    assertThat(ShopDatabase.heldKeys("alice", CHARGE, key)).isEqualTo(1);
  }

  @Test
  void control_theChargeOfThePaymentsOwnAmountUnderItsKey_isCaptured() {
    String orderId = newOrder("alice");
    String key = newKey();
    String gatewayKey = unknownPaymentWithoutCharge(orderId, key);

    assertThat(Sandbox.charge(gatewayKey, Payments.TOTAL, orderId).statusCode()).isEqualTo(201);
    Map<String, Integer> report = Payments.reconcileNowReport();
    assertThat(report.get("CAPTURED")).as("keys the run captured").isGreaterThanOrEqualTo(1);
    assertThat(Payments.keyState("alice", key)).isEqualTo("COMPLETED 201");

    assertThat(paymentStatus(key)).isEqualTo("CAPTURED");
    assertThat(orderStatus(orderId)).isEqualTo("PAID");
    Response retry = pay("alice", orderId, key, "pm_card_ok");
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  @Test
  void theGatewayKeyIsNotTheOneAClientCouldCompute() throws Exception {
    String orderId = newOrder("alice");
    String key = newKey();
    String gatewayKey = unknownPaymentWithoutCharge(orderId, key);

    // What the gateway key used to be: SHA-256 over the length-prefixed tenant, operation, key.
    MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
    for (String part : new String[] {"alice", CHARGE, key}) {
      byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
      sha256.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
      sha256.update(bytes);
    }
    assertThat(gatewayKey)
        .isNotEqualTo("banhang_" + HexFormat.of().formatHex(sha256.digest(), 0, 24));
  }
}
