package com.banhang.shop.client;

import java.util.Optional;

/** The orders of the shop: {@code POST /api/v1/orders}, operation {@code orders.create}. */
public final class Orders {

  static final String PATH = "/api/v1/orders";

  private final ShopClient client;

  Orders(ShopClient client) {
    this.client = client;
  }

  /** Creates an order, as a new intent under a new key (a random UUID v4). */
  public Result create(CreateOrder order) {
    return client.start(PATH, RequestBodies.of(order), Optional.empty());
  }

  /**
   * Creates an order under the caller's key: for a caller that keeps its own keys, such as one
   * derived from its own order number.
   *
   * @throws IllegalArgumentException if the key is not one the shop accepts (1 to 255 printable
   *     ASCII characters, no space); nothing is stored or sent
   */
  public Result create(CreateOrder order, String idempotencyKey) {
    return client.start(PATH, RequestBodies.of(order), Optional.of(idempotencyKey));
  }
}
