package com.banhang.shop.client;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The body of {@code POST /api/v1/orders} (docs/contract.md, section 10). Amounts are integers in
 * the currency's smallest unit (whole dong for VND), so money never passes through a float.
 *
 * @param currency an ISO 4217 code, such as {@code VND}
 * @param merchantOrderId the caller's own order number, unique per tenant, if it has one
 * @param items 1 to 100 lines
 */
public record CreateOrder(String currency, Optional<String> merchantOrderId, List<Item> items) {

  /** One line: a product, how many, and its unit price in the currency's smallest unit. */
  public record Item(String sku, int quantity, long unitPrice) {
    public Item {
      Objects.requireNonNull(sku, "sku");
    }
  }

  public CreateOrder {
    Objects.requireNonNull(currency, "currency");
    Objects.requireNonNull(merchantOrderId, "merchantOrderId");
    items = List.copyOf(items);
    if (items.isEmpty()) {
      throw new IllegalArgumentException("an order has at least one item");
    }
  }

  /** An order of {@code items} in {@code currency}, without a merchant order id. */
  public static CreateOrder of(String currency, Item... items) {
    return new CreateOrder(currency, Optional.empty(), List.of(items));
  }

  /**
   * This order with the caller's own order number. The shop keeps it unique per tenant beyond any
   * key's expiry, so it also guards against a second order long after the key is forgotten.
   */
  public CreateOrder withMerchantOrderId(String merchantOrderId) {
    return new CreateOrder(currency, Optional.of(merchantOrderId), items);
  }
}
