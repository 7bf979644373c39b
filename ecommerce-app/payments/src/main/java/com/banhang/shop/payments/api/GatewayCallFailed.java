package com.banhang.shop.payments.api;

/**
 * CDI event: one call to the payment gateway failed (a transport error or an unexpected status, on
 * any try, including those Fault Tolerance then retries), so that the operator console can count
 * gateway errors. Fired synchronously on the calling thread; an observer that throws is logged and
 * changes nothing. A refusal (400/422) or a decline is an answer, not a failure, and fires nothing.
 *
 * @param call {@code charge}, {@code findByKey} or {@code findCharge}
 * @param mayHaveCharged true if the failed call may have reached the processor and charged; always
 *     false for lookups, which never charge
 */
public record GatewayCallFailed(String call, boolean mayHaveCharged) {

  /** {@code POST /v1/charges}. */
  public static final String CHARGE = "charge";

  /** {@code GET /v1/charges?idempotencyKey=}, reconciliation's lookup. */
  public static final String FIND_BY_KEY = "findByKey";

  /** {@code GET /v1/charges/{id}}, an operator's check of a charge id. */
  public static final String FIND_CHARGE = "findCharge";
}
