package com.banhang.shop.orders.application;

import com.banhang.shop.orders.api.OrderLookup;
import com.banhang.shop.orders.domain.model.OrderRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/** {@link OrderLookup}: orders as the operator console finds them, across tenants. */
@ApplicationScoped
public class DefaultOrderLookup implements OrderLookup {

  /** A merchant order id is at most this long (shop_order.merchant_order_id). */
  static final int MERCHANT_ORDER_ID_LENGTH = 64;

  @Inject OrderRepository orders;

  /**
   * Exactly {@code merchantOrderId}, after trimming the white space an operator may paste with it
   * (a merchant order id has none at either end). A blank term, or one longer than any merchant
   * order id, finds nothing without a query.
   */
  @Override
  public List<String> idsByMerchantOrderId(String merchantOrderId, int limit) {
    if (merchantOrderId == null || limit < 1) {
      return List.of();
    }
    String term = merchantOrderId.strip();
    if (term.isEmpty() || term.length() > MERCHANT_ORDER_ID_LENGTH) {
      return List.of();
    }
    return orders.idsByMerchantOrderId(term, limit);
  }
}
