package com.banhang.shop.payments.infrastructure.persistence.jpa;

import com.banhang.shop.payments.domain.model.LateCharge;
import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.domain.model.PaymentInProgressException;
import com.banhang.shop.payments.domain.model.PaymentRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.PersistenceException;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Payments through JPA. A page of no rows is answered here without a query: EclipseLink reads
 * {@code setMaxResults(0)} as no limit at all when the first result is 0 (every row), and as {@code
 * FETCH NEXT 0 ROWS} after an offset, which SQL Server refuses (the count must be at least 1). A
 * negative offset, which JPA refuses, is read as 0.
 */
@ApplicationScoped
public class JpaPaymentRepository implements PaymentRepository {

  @PersistenceContext(unitName = "shop")
  EntityManager em;

  @Override
  public void add(Payment payment) {
    em.persist(payment);
    // The unique index on the active order decides a race between two keys, here and now.
    flush(payment.orderId());
  }

  @Override
  public void flush() {
    flush(null);
  }

  private void flush(String orderId) {
    try {
      em.flush();
    } catch (PersistenceException e) {
      if (constraintViolation(e)) {
        throw new PaymentInProgressException(orderId);
      }
      throw e;
    }
  }

  @Override
  public List<Payment> lateChargeCandidates(
      OffsetDateTime createdAfter, OffsetDateTime checkedBefore, int limit) {
    if (limit < 1) {
      return List.of();
    }
    return em.createQuery(
            "SELECT p FROM Payment p WHERE p.status = :abandoned AND p.createdAt > :createdAfter"
                + " AND p.lateCharge IS NULL"
                + " AND (p.lateCheckedAt IS NULL OR p.lateCheckedAt < :checkedBefore)"
                + " AND NOT EXISTS (SELECT c FROM Payment c WHERE c.gatewayKey = p.gatewayKey"
                + " AND c.status = :captured)"
                + " ORDER BY p.createdAt",
            Payment.class)
        .setParameter("abandoned", Payment.Status.ABANDONED)
        .setParameter("captured", Payment.Status.CAPTURED)
        .setParameter("createdAfter", createdAfter)
        .setParameter("checkedBefore", checkedBefore)
        .setMaxResults(limit)
        .getResultList();
  }

  @Override
  public List<Payment> flaggedLateCharges(
      Collection<LateCharge> flags, boolean includeHandled, int offset, int limit) {
    if (limit < 1) {
      return List.of();
    }
    return em.createQuery(
            "SELECT p FROM Payment p WHERE p.lateCharge IN :flags"
                + unhandledOnly(includeHandled)
                + " ORDER BY p.lateCheckedAt DESC, p.id DESC",
            Payment.class)
        .setParameter("flags", flags)
        .setFirstResult(Math.max(0, offset))
        .setMaxResults(limit)
        .getResultList();
  }

  @Override
  public long countFlaggedLateCharges(Collection<LateCharge> flags, boolean includeHandled) {
    return em.createQuery(
            "SELECT COUNT(p) FROM Payment p WHERE p.lateCharge IN :flags"
                + unhandledOnly(includeHandled),
            Long.class)
        .setParameter("flags", flags)
        .getSingleResult();
  }

  /** The condition that leaves out the late charges an operator marked handled (V16). */
  static String unhandledOnly(boolean includeHandled) {
    return includeHandled ? "" : " AND p.handledAt IS NULL";
  }

  @Override
  public java.util.List<Payment> findByGatewayKey(String gatewayKey) {
    return em.createQuery("SELECT p FROM Payment p WHERE p.gatewayKey = :gatewayKey", Payment.class)
        .setParameter("gatewayKey", gatewayKey)
        .getResultList();
  }

  @Override
  public Optional<Payment> findCapturedByGatewayKey(String gatewayKey) {
    return em.createQuery(
            "SELECT p FROM Payment p WHERE p.gatewayKey = :gatewayKey AND p.status = :captured",
            Payment.class)
        .setParameter("gatewayKey", gatewayKey)
        .setParameter("captured", Payment.Status.CAPTURED)
        .setMaxResults(1)
        .getResultStream()
        .findFirst();
  }

  @Override
  public Optional<Payment> find(String tenantId, String paymentId) {
    Payment payment = em.find(Payment.class, paymentId);
    return payment != null && payment.tenantId().equals(tenantId)
        ? Optional.of(payment)
        : Optional.empty();
  }

  @Override
  public Optional<Payment> find(String paymentId) {
    return Optional.ofNullable(em.find(Payment.class, paymentId));
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
