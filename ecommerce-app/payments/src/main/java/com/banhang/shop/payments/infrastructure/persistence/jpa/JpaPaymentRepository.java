package com.banhang.shop.payments.infrastructure.persistence.jpa;

import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.domain.model.PaymentInProgressException;
import com.banhang.shop.payments.domain.model.PaymentRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import java.util.Optional;

@ApplicationScoped
public class JpaPaymentRepository implements PaymentRepository {

  @PersistenceContext(unitName = "shop")
  EntityManager em;

  @Override
  public void add(Payment payment) {
    em.persist(payment);
    try {
      // The unique index on the active order decides a race between two keys, here and now.
      em.flush();
    } catch (PersistenceException e) {
      if (constraintViolation(e)) {
        throw new PaymentInProgressException(payment.orderId());
      }
      throw e;
    }
  }

  @Override
  public Optional<Payment> find(String tenantId, String paymentId) {
    Payment payment = em.find(Payment.class, paymentId);
    return payment != null && payment.tenantId().equals(tenantId)
        ? Optional.of(payment)
        : Optional.empty();
  }

  @Override
  public Optional<Payment> lock(String paymentId) {
    return Optional.ofNullable(em.find(Payment.class, paymentId, LockModeType.PESSIMISTIC_WRITE));
  }

  @Override
  public Optional<Payment> findByClaim(String tenantId, String idempotencyKey, int attempt) {
    return em.createQuery(
            "SELECT p FROM Payment p WHERE p.tenantId = :tenant AND p.idempotencyKey = :key"
                + " AND p.idempotencyAttempt = :attempt ORDER BY p.createdAt DESC",
            Payment.class)
        .setParameter("tenant", tenantId)
        .setParameter("key", idempotencyKey)
        .setParameter("attempt", attempt)
        .setMaxResults(1)
        .getResultStream()
        .findFirst();
  }

  @Override
  public Optional<Payment> findLatestByKey(String tenantId, String idempotencyKey) {
    return em.createQuery(
            "SELECT p FROM Payment p WHERE p.tenantId = :tenant AND p.idempotencyKey = :key"
                + " ORDER BY p.idempotencyAttempt DESC, p.createdAt DESC",
            Payment.class)
        .setParameter("tenant", tenantId)
        .setParameter("key", idempotencyKey)
        .setMaxResults(1)
        .getResultStream()
        .findFirst();
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
