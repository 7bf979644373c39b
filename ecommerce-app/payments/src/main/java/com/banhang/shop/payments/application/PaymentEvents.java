package com.banhang.shop.payments.application;

import com.banhang.events.NewEvent;
import com.banhang.events.Outbox;
import com.banhang.shop.payments.domain.model.Payment;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObjectBuilder;

/**
 * The payments context's events out (docs/events.md): a payment captured, declined or abandoned,
 * written to the outbox in the transaction that settles it, so that an event exists if and only if
 * the settlement committed. They belong to the order's stream (aggregate {@code order}, the order's
 * id), after its {@code OrderPlaced}, so a subscriber sees an order's events in the order they
 * happened. Operators' resolutions are these same events, with {@code settledBy} saying who.
 */
@ApplicationScoped
public class PaymentEvents {

  public static final String CAPTURED = "com.banhang.shop.PaymentCaptured";
  public static final String DECLINED = "com.banhang.shop.PaymentDeclined";
  public static final String ABANDONED = "com.banhang.shop.PaymentAbandoned";

  /** The stream of an order's events, shared with the orders context's {@code OrderPlaced}. */
  static final String AGGREGATE = "order";

  @Inject Outbox outbox;

  /** A captured or declined payment, by whoever recorded the gateway's answer. */
  public void settled(Payment payment, String actor) {
    if (payment.status() == Payment.Status.CAPTURED) {
      record(payment, CAPTURED, actor);
    } else if (payment.status() == Payment.Status.DECLINED) {
      record(payment, DECLINED, actor);
    } else {
      throw new IllegalStateException("payment " + payment.id() + " is " + payment.status());
    }
  }

  /** An attempt that certainly charged nothing and let go of its order. */
  public void abandoned(Payment payment, String actor) {
    record(payment, ABANDONED, actor);
  }

  private void record(Payment payment, String type, String actor) {
    JsonObjectBuilder data =
        Json.createObjectBuilder()
            .add("paymentId", payment.id())
            .add("orderId", payment.orderId())
            .add("amount", payment.amount())
            .add("currency", payment.currency())
            .add("status", payment.status().name())
            .add("settledBy", settledBy(actor));
    if (payment.gatewayChargeId() != null) {
      data.add("chargeId", payment.gatewayChargeId());
    }
    outbox.record(
        new NewEvent(
            AGGREGATE, payment.orderId(), type, payment.tenantId(), data.build().toString()));
  }

  /**
   * Who settled it, in the few words a subscriber can rely on: the customer's own request,
   * reconciliation, the late-charge sweep or an operator. An operator's name stays in the shop's
   * audit; it is not sent out.
   */
  static String settledBy(String actor) {
    return switch (actor) {
      case Timeline.SHOP -> "request";
      case Timeline.RECONCILIATION -> "reconciliation";
      case Timeline.LATE_CHARGE_SWEEP -> "late-charge-sweep";
      default -> "operator";
    };
  }
}
