package com.banhang.shop.orders.infrastructure.persistence.jpa;

import com.banhang.shop.orders.domain.model.MerchantOrderIdTakenException;
import com.banhang.shop.orders.domain.model.Order;
import com.banhang.shop.orders.domain.model.OrderRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import java.util.List;
import java.util.Optional;

@ApplicationScoped
public class JpaOrderRepository implements OrderRepository {

  @PersistenceContext(unitName = "shop")
  EntityManager em;

  @Override
  public void add(Order order) {
    em.persist(order);
    try {
      // Flush now so that the unique merchant id is decided here, by the database, not at commit;
      // and so that the key, which the idempotency interceptor completes after the method in the
      // same transaction, is its last write (docs/sqlserver.md, "The key is written last").
      em.flush();
    } catch (PersistenceException e) {
      if (order.merchantOrderId() != null && constraintViolation(e)) {
        throw new MerchantOrderIdTakenException();
      }
      throw e;
    }
  }

  @Override
  public Optional<Order> find(String tenantId, String orderId) {
    Order order = em.find(Order.class, orderId);
    return order != null && order.tenantId().equals(tenantId)
        ? Optional.of(order)
        : Optional.empty();
  }

  /**
   * A seek on ix_shop_order_merchant_order_id (V13): the unique index leads with the tenant, which
   * an operator's search does not know. A page of no rows is answered without a query: EclipseLink
   * reads {@code setMaxResults(0)} as no limit at all.
   */
  @Override
  public List<String> idsByMerchantOrderId(String merchantOrderId, int limit) {
    if (limit < 1 || merchantOrderId == null || merchantOrderId.isEmpty()) {
      return List.of();
    }
    return em.createQuery(
            "SELECT o.id FROM Order o WHERE o.merchantOrderId = :merchantOrderId"
                + " ORDER BY o.createdAt DESC, o.id DESC",
            String.class)
        .setParameter("merchantOrderId", merchantOrderId)
        .setMaxResults(limit)
        .getResultList();
  }

  /** SQLSTATE class 23: an integrity constraint (here: the unique index) refused the row. */
  private static boolean constraintViolation(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof java.sql.SQLException sql
          && sql.getSQLState() != null
          && sql.getSQLState().startsWith("23")) {
        return true;
      }
    }
    return false;
  }
}
