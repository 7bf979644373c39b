package com.banhang.shop.payments.domain.model;

import java.util.Optional;

/** Payment attempts; a tenant sees only its own. */
public interface PaymentRepository {

  /**
   * Stores a new attempt and makes the database check it now.
   *
   * @throws PaymentInProgressException when another attempt already holds the order
   */
  void add(Payment payment);

  Optional<Payment> find(String tenantId, String paymentId);

  /** The attempt, locked for update, so that concurrent reconcilers settle it once. */
  Optional<Payment> lock(String paymentId);

  /** The attempt started by a claim: the key's tenant, key and fencing attempt. */
  Optional<Payment> findByClaim(String tenantId, String idempotencyKey, int idempotencyAttempt);

  /** The latest attempt started under a key (by any of its claims), if any. */
  Optional<Payment> findLatestByKey(String tenantId, String idempotencyKey);
}
