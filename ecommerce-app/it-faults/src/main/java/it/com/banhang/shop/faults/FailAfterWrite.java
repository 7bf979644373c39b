package it.com.banhang.shop.faults;

import com.banhang.shop.orders.domain.model.OrderPlaced;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Test only, never in the shipped WAR: an order containing {@link #SKU} fails after its rows were
 * written, inside the placing transaction ({@link OrderPlaced} is fired there, synchronously), so
 * that OrderIdempotencyIT can prove that a failed attempt leaves no order and no key behind. The
 * integration servers deploy the WAR this module builds, shop-web-with-faults.war: shop-web's WAR
 * with this class added.
 */
@ApplicationScoped
public class FailAfterWrite {

  /** The SKU of OrderIdempotencyIT's failing order. */
  public static final String SKU = "FAULT-AFTER-WRITE";

  void failOrdersWithTheSku(@Observes OrderPlaced placed) {
    if (placed.order().lines().stream().anyMatch(line -> line.sku().equals(SKU))) {
      throw new IllegalStateException(
          "injected failure after writing order " + placed.order().id());
    }
  }
}
