package it.com.banhang.shop;

import static it.com.banhang.shop.Payments.TOTAL;
import static it.com.banhang.shop.Payments.newOrder;
import static it.com.banhang.shop.Payments.pay;
import static it.com.banhang.shop.ShopApi.newKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** payments.charge, one request at a time, against the sandbox without faults. */
class PaymentIdempotencyIT {

  @AfterEach
  void noFaults() {
    Sandbox.noFaults();
  }

  @Test
  void pay_newKey_capturesOnceAndMarksTheOrderPaid() {
    String orderId = newOrder("alice");

    Response paid = pay("alice", orderId, newKey(), "pm_card_ok");

    assertThat(paid.statusCode()).isEqualTo(201);
    assertThat((String) paid.path("status")).isEqualTo("CAPTURED");
    assertThat((String) paid.path("orderId")).isEqualTo(orderId);
    assertThat((String) paid.path("gatewayChargeId")).startsWith("ch_");
    assertThat(paid.header("Location")).endsWith("/api/v1/payments/" + paid.path("id"));
    assertThat(paid.header("Idempotency-Key-Expires")).endsWith("GMT");
    String order = ShopApi.as("alice").get("/api/v1/orders/" + orderId).path("status");
    assertThat(order).isEqualTo("PAID");
    String payment = ShopApi.as("alice").get(paid.header("Location")).path("status");
    assertThat(payment).isEqualTo("CAPTURED");
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  @Test
  void retry_sameKey_replaysTheCaptureWithoutChargingAgain() {
    String orderId = newOrder("alice");
    String key = newKey();
    Response first = pay("alice", orderId, key, "pm_card_ok");
    Response retry = pay("alice", orderId, key, "pm_card_ok");

    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(retry.asByteArray()).isEqualTo(first.asByteArray());
    assertThat(retry.header("Location")).isEqualTo(first.header("Location"));
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  @Test
  void declinedCard_is402StoredAndReplayed_thenANewKeyPaysWithAnotherCard() {
    String orderId = newOrder("alice");
    String key = newKey();

    Response declined = pay("alice", orderId, key, "pm_card_declined");
    Response replay = pay("alice", orderId, key, "pm_card_declined");

    assertThat(declined.statusCode()).isEqualTo(402);
    assertThat(declined.contentType()).startsWith("application/problem+json");
    assertThat((String) declined.path("type")).endsWith("#payment-declined");
    assertThat(replay.statusCode()).isEqualTo(402);
    assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(replay.asByteArray()).isEqualTo(declined.asByteArray());

    Response otherCard = pay("alice", orderId, newKey(), "pm_card_ok");
    assertThat(otherCard.statusCode()).isEqualTo(201);
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  @Test
  void orderAlreadyPaid_underAnotherKey_is409StoredAndNothingCharged() {
    String orderId = newOrder("alice");
    assertThat(pay("alice", orderId, newKey(), "pm_card_ok").statusCode()).isEqualTo(201);

    String key = newKey();
    Response again = pay("alice", orderId, key, "pm_card_ok");
    Response replay = pay("alice", orderId, key, "pm_card_ok");

    assertThat(again.statusCode()).isEqualTo(409);
    assertThat((String) again.path("type")).endsWith("#order-already-paid");
    assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  @Test
  void amountOtherThanTheTotal_is422AndNothingCharged() {
    String orderId = newOrder("alice");

    Response wrong = pay(ShopApi.as("alice"), orderId, newKey(), TOTAL - 1, "pm_card_ok");

    assertThat(wrong.statusCode()).isEqualTo(422);
    assertThat((String) wrong.path("type")).endsWith("#payment-amount-mismatch");
    assertThat(Sandbox.charges(orderId)).isZero();
  }

  @Test
  void sameKeyOtherAmount_is422KeyReused() {
    String orderId = newOrder("alice");
    String key = newKey();
    assertThat(pay("alice", orderId, key, "pm_card_ok").statusCode()).isEqualTo(201);

    Response reused = pay("alice", orderId, key, "pm_card_declined");

    assertThat(reused.statusCode()).isEqualTo(422);
    assertThat((String) reused.path("type")).endsWith("#idempotency-key-reused");
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  @Test
  void anotherTenantsOrder_is404AndNothingCharged() {
    String orderId = newOrder("alice");

    Response bobs = pay("bob", orderId, newKey(), "pm_card_ok");

    assertThat(bobs.statusCode()).isEqualTo(404);
    assertThat(Sandbox.charges(orderId)).isZero();
  }

  @Test
  void invalidBody_is400AndTheKeyStaysUsable() {
    String orderId = newOrder("alice");
    String key = newKey();

    Response invalid = pay("alice", orderId, key, "card-4242");
    Response fixed = pay("alice", orderId, key, "pm_card_ok");

    assertThat(invalid.statusCode()).isEqualTo(400);
    assertThat(invalid.jsonPath().getList("errors.field")).containsExactly("paymentMethod");
    assertThat(fixed.statusCode()).isEqualTo(201);
  }

  @Test
  void gatewayRefusesBeforeCharging_is503AndTheKeyIsReleasedForARetry() {
    String orderId = newOrder("alice");
    String key = newKey();
    Sandbox.faults("{\"errorBeforeChargeProbability\":1}");

    Response refused = pay("alice", orderId, key, "pm_card_ok");

    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat((String) refused.path("type")).endsWith("#payment-gateway-unavailable");
    assertThat(Sandbox.charges(orderId)).isZero();

    Sandbox.noFaults();
    Response retry = pay("alice", orderId, key, "pm_card_ok");
    assertThat(retry.statusCode()).isEqualTo(201);
    assertThat(retry.header("Idempotent-Replayed")).isNull();
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  @Test
  void paymentMethodTheProcessorRefuses_is422Stored_andTheOrderStaysPayable() {
    String orderId = newOrder("alice");
    String key = newKey();

    Response refused = pay("alice", orderId, key, "pm_unknown_wallet");
    Response replay = pay("alice", orderId, key, "pm_unknown_wallet");

    assertThat(refused.statusCode()).isEqualTo(422);
    assertThat((String) refused.path("type")).endsWith("#payment-method-rejected");
    assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(Sandbox.charges(orderId)).isZero();
    assertThat(pay("alice", orderId, newKey(), "pm_card_ok").statusCode()).isEqualTo(201);
    assertThat(Sandbox.charges(orderId)).isEqualTo(1);
  }

  @Test
  void reconciliation_isForOperatorsOnly() {
    Response customer = ShopApi.as("alice").post("/api/v1/admin/reconciliations");

    assertThat(customer.statusCode()).isEqualTo(403);
    assertThat(customer.contentType()).startsWith("application/problem+json");
    // The operator's run answers a whole report (every outcome counted, adding up).
    assertThat(Payments.reconcileNowReport()).isNotEmpty();
  }

  /**
   * The key is the last write of the transaction that records a charge (docs/sqlserver.md, "The key
   * is written last"), seen in the database: on PostgreSQL a row version carries the transaction
   * that wrote it ({@code xmin}) and the number of the command within that transaction ({@code
   * cmin}). The payment, the order and the completed key come from one transaction, and the key's
   * UPDATE comes after the other two. Before the fix EclipseLink flushed the payment and the order
   * at commit, after the key. H2 has no such columns: there the unit tests of PayOrder and
   * PaymentService check the order of the calls.
   */
  @Test
  void theCompletedKeyIsTheLastWriteOfTheTransactionThatRecordsTheCharge() {
    Assumptions.assumeTrue(
        ShopDatabase.isPostgreSql(), "xmin and cmin are PostgreSQL's system columns");
    String orderId = newOrder("alice");
    String key = newKey();

    assertThat(pay("alice", orderId, key, "pm_card_ok").statusCode()).isEqualTo(201);

    long[] payment =
        ShopDatabase.writtenBy(
            "SELECT xmin::text, cmin::text FROM payment WHERE order_id = ? AND status = 'CAPTURED'",
            orderId);
    long[] order =
        ShopDatabase.writtenBy(
            "SELECT xmin::text, cmin::text FROM shop_order WHERE id = ?", orderId);
    long[] completion =
        ShopDatabase.writtenBy(
            "SELECT xmin::text, cmin::text FROM idempotency_record"
                + " WHERE tenant_id = ? AND operation = ? AND idempotency_key = ?",
            "alice",
            "payments.charge",
            key);
    System.out.printf(
        "payment (xmin %d, cmin %d), order (xmin %d, cmin %d), key (xmin %d, cmin %d)%n",
        payment[0], payment[1], order[0], order[1], completion[0], completion[1]);
    assertThat(new long[] {payment[0], order[0]})
        .as("one transaction wrote the payment, the order and the key")
        .containsOnly(completion[0]);
    assertThat(completion[1])
        .as("the key's UPDATE comes after the payment's and the order's")
        .isGreaterThan(payment[1])
        .isGreaterThan(order[1]);
  }
}
