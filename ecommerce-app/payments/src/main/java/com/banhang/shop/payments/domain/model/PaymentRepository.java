package com.banhang.shop.payments.domain.model;

import java.util.Optional;

/** Payments; a tenant sees only its own. */
public interface PaymentRepository {

  /**
   * Stores a new attempt and makes the database check it now.
   *
   * @throws PaymentInProgressException when another attempt already holds the order
   */
  void add(Payment payment);

  Optional<Payment> find(String tenantId, String paymentId);

  /** An attempt by its id, whatever its tenant: for operators only. */
  Optional<Payment> find(String paymentId);

  /** The attempt, locked for update, so that concurrent reconcilers settle it once. */
  Optional<Payment> lock(String paymentId);

  /** The attempt started by a claim: the key's tenant, key and fencing attempt. */
  Optional<Payment> findByClaim(String tenantId, String idempotencyKey, int idempotencyAttempt);

  /** The latest attempt started under a key (by any of its claims), if any. */
  Optional<Payment> findLatestByKey(String tenantId, String idempotencyKey);

  /**
   * Abandoned attempts the late-charge sweep may ask the gateway about, oldest first: created after
   * {@code createdAfter} (inside the gateway's key retention), nothing found for them yet, not
   * asked since {@code checkedBefore}, and whose gateway key no attempt has captured.
   */
  java.util.List<Payment> lateChargeCandidates(
      java.time.OffsetDateTime createdAfter, java.time.OffsetDateTime checkedBefore, int limit);

  /**
   * Attempts the late-charge sweep flagged with one of {@code flags}, newest finding first (then by
   * id, so that pages do not overlap), for the operator console.
   *
   * @param includeHandled also those an operator marked handled; false: only those nobody has
   */
  java.util.List<Payment> flaggedLateCharges(
      java.util.Collection<LateCharge> flags, boolean includeHandled, int offset, int limit);

  /**
   * How many attempts the late-charge sweep flagged with one of {@code flags}.
   *
   * @param includeHandled also those an operator marked handled; false: only those nobody has
   */
  long countFlaggedLateCharges(java.util.Collection<LateCharge> flags, boolean includeHandled);

  /** Every attempt made under this gateway key (a key's retries reuse its gateway key). */
  java.util.List<Payment> findByGatewayKey(String gatewayKey);

  /** An attempt captured under this gateway key, if any. */
  Optional<Payment> findCapturedByGatewayKey(String gatewayKey);

  /**
   * Writes the pending changes now.
   *
   * @throws PaymentInProgressException when the unique index refuses an attempt holding an order
   */
  void flush();
}
