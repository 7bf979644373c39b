package com.banhang.shop.orders.application;

import com.banhang.shop.orders.domain.model.Order;
import com.banhang.shop.orders.domain.model.OrderLine;
import com.banhang.shop.orders.domain.model.OrderPlaced;
import com.banhang.shop.orders.domain.model.OrderRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import java.util.List;

/**
 * Placing an order ({@code orders.create}): the order and its lines are written, and {@link
 * OrderPlaced} fired, in the caller's transaction, so that an idempotent caller completes its key
 * in the same one, after these rows (docs/sqlserver.md, "The key is written last").
 */
@ApplicationScoped
public class PlaceOrder {

  /** What a customer asks for when placing an order; already validated at the boundary. */
  public record Command(
      String tenantId, String merchantOrderId, String currency, List<Line> lines) {

    /** One product, how many, and its unit price in the currency's minor unit. */
    public record Line(String sku, int quantity, long unitPrice) {}
  }

  @Inject OrderRepository orders;

  /** Fired inside the transaction once the order is written (see {@link OrderPlaced}). */
  @Inject Event<OrderPlaced> placed;

  /**
   * Joins the caller's transaction, so an idempotent caller completes its key in the same one.
   *
   * @throws com.banhang.shop.orders.domain.model.MerchantOrderIdTakenException when the tenant
   *     already has an order with this merchant order id
   */
  @Transactional
  public Order place(Command command) {
    Order order =
        new Order(
            command.tenantId(),
            command.merchantOrderId(),
            command.currency(),
            command.lines().stream()
                .map(l -> new OrderLine(l.sku(), l.quantity(), l.unitPrice()))
                .toList());
    orders.add(order);
    placed.fire(new OrderPlaced(order));
    return order;
  }
}
