package com.banhang.shop.orders.application;

import com.banhang.events.NewEvent;
import com.banhang.events.Outbox;
import com.banhang.shop.orders.domain.model.Order;
import com.banhang.shop.orders.domain.model.OrderLine;
import com.banhang.shop.orders.domain.model.OrderPlaced;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;

/**
 * The orders context's events out (docs/events.md): {@code OrderPlaced}, written to the outbox
 * while the order is placed, in its transaction, so that the event exists if and only if the order
 * does. It opens the order's stream (aggregate {@code order}, the order's id) that the payments
 * context's events continue.
 */
@ApplicationScoped
public class OrderEvents {

  public static final String PLACED = "com.banhang.shop.OrderPlaced";

  @Inject Outbox outbox;

  /** Observes {@link OrderPlaced} synchronously, inside the placing transaction. */
  void placed(@Observes OrderPlaced placed) {
    Order order = placed.order();
    JsonArrayBuilder lines = Json.createArrayBuilder();
    for (OrderLine line : order.lines()) {
      lines.add(
          Json.createObjectBuilder()
              .add("sku", line.sku())
              .add("quantity", line.quantity())
              .add("unitPrice", line.unitPrice()));
    }
    var data =
        Json.createObjectBuilder()
            .add("orderId", order.id())
            .add("currency", order.currency())
            .add("total", order.total())
            .add("lines", lines);
    if (order.merchantOrderId() != null) {
      data.add("merchantOrderId", order.merchantOrderId());
    }
    outbox.record(
        new NewEvent("order", order.id(), PLACED, order.tenantId(), data.build().toString()));
  }
}
