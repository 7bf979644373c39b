package com.banhang.shop.orders.application;

import com.banhang.shop.orders.domain.model.Order;
import com.banhang.shop.orders.domain.model.OrderLine;
import com.banhang.shop.orders.domain.model.OrderNotFoundException;
import com.banhang.shop.orders.domain.model.OrderRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Placing and reading orders. */
@ApplicationScoped
public class OrderService {

  @Inject OrderRepository orders;

  /**
   * Fault injection for the proof harness: an order containing this SKU fails after its rows were
   * written, inside the transaction, to show that a failed attempt leaves nothing behind. Empty
   * (off) unless configured; never set in production.
   */
  @Inject
  @ConfigProperty(name = "orders.fault.fail-after-write-sku")
  Optional<String> failAfterWriteSku;

  /** Joins the caller's transaction, so an idempotent caller completes its key in the same one. */
  @Transactional
  public Order placeOrder(PlaceOrderCommand command) {
    Order order =
        new Order(
            command.tenantId(),
            command.merchantOrderId(),
            command.currency(),
            command.lines().stream()
                .map(l -> new OrderLine(l.sku(), l.quantity(), l.unitPrice()))
                .toList());
    orders.add(order);
    failAfterWriteSku
        .filter(sku -> order.lines().stream().anyMatch(l -> l.sku().equals(sku)))
        .ifPresent(
            sku -> {
              throw new IllegalStateException("injected failure after writing order " + order.id());
            });
    return order;
  }

  public Order order(String tenantId, String orderId) {
    return orders.find(tenantId, orderId).orElseThrow(() -> new OrderNotFoundException(orderId));
  }
}
