package com.banhang.shop.orders.domain.model;

import jakarta.persistence.Column;
import jakarta.persistence.Embeddable;

/** One product in an order, priced when the order was placed, in the currency's minor unit. */
@Embeddable
public class OrderLine {

  @Column(name = "sku", nullable = false, length = 64)
  private String sku;

  @Column(name = "quantity", nullable = false)
  private int quantity;

  @Column(name = "unit_price", nullable = false)
  private long unitPrice;

  protected OrderLine() {}

  public OrderLine(String sku, int quantity, long unitPrice) {
    if (quantity < 1 || unitPrice < 0) {
      throw new IllegalArgumentException("an order line has a positive quantity and a price >= 0");
    }
    this.sku = sku;
    this.quantity = quantity;
    this.unitPrice = unitPrice;
  }

  public String sku() {
    return sku;
  }

  public int quantity() {
    return quantity;
  }

  public long unitPrice() {
    return unitPrice;
  }

  /** quantity x unit price; overflow is an error, never a wrapped amount. */
  public long subtotal() {
    return Math.multiplyExact(unitPrice, quantity);
  }
}
