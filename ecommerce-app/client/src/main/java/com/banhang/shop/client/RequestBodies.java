package com.banhang.shop.client;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import java.nio.charset.StandardCharsets;

/**
 * The JSON of each request, made once per intent: the bytes written here are the bytes every try
 * sends and the intent store keeps.
 */
final class RequestBodies {

  private RequestBodies() {}

  static byte[] of(CreateOrder order) {
    JsonArrayBuilder items = Json.createArrayBuilder();
    for (CreateOrder.Item item : order.items()) {
      items.add(
          Json.createObjectBuilder()
              .add("sku", item.sku())
              .add("quantity", item.quantity())
              .add("unitPrice", item.unitPrice()));
    }
    JsonObjectBuilder json = Json.createObjectBuilder().add("currency", order.currency());
    order.merchantOrderId().ifPresent(id -> json.add("merchantOrderId", id));
    return utf8(json.add("items", items).build().toString());
  }

  static byte[] of(PaymentRequest payment) {
    return utf8(
        Json.createObjectBuilder()
            .add("amount", payment.amount())
            .add("currency", payment.currency())
            .add("paymentMethod", payment.paymentMethod())
            .build()
            .toString());
  }

  private static byte[] utf8(String json) {
    return json.getBytes(StandardCharsets.UTF_8);
  }
}
