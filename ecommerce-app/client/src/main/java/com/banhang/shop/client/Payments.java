package com.banhang.shop.client;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * The payments of the shop: {@code POST /api/v1/orders/{orderId}/payments}, operation {@code
 * payments.charge}. One payment intent is one card for one order: paying again with another card
 * after a {@link Result.Declined} is a new intent, under a new key.
 */
public final class Payments {

  private final ShopClient client;

  Payments(ShopClient client) {
    this.client = client;
  }

  /** Pays an order, as a new intent under a new key (a random UUID v4). */
  public Result pay(String orderId, PaymentRequest payment) {
    return client.start(path(orderId), RequestBodies.of(payment), Optional.empty());
  }

  /**
   * Pays an order under the caller's key.
   *
   * @throws IllegalArgumentException if the key is not one the shop accepts; nothing is stored or
   *     sent
   */
  public Result pay(String orderId, PaymentRequest payment, String idempotencyKey) {
    return client.start(path(orderId), RequestBodies.of(payment), Optional.of(idempotencyKey));
  }

  static String path(String orderId) {
    return Orders.PATH
        + "/"
        + pathSegment(Objects.requireNonNull(orderId, "orderId"))
        + "/payments";
  }

  /** Percent-encodes all but RFC 3986's unreserved characters, so an id stays one segment. */
  private static String pathSegment(String value) {
    StringBuilder encoded = new StringBuilder();
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xFF);
      if ((c >= 'A' && c <= 'Z')
          || (c >= 'a' && c <= 'z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~') {
        encoded.append(c);
      } else {
        encoded.append('%').append(String.format("%02X", b & 0xFF));
      }
    }
    return encoded.toString();
  }
}
