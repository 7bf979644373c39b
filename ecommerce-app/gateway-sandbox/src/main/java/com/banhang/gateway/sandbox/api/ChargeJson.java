package com.banhang.gateway.sandbox.api;

import com.banhang.gateway.sandbox.charge.Charge;
import jakarta.json.bind.annotation.JsonbPropertyOrder;

/**
 * A charge as the API shows it. The request fingerprint stays inside the sandbox.
 *
 * @param id {@code ch_...}
 * @param status {@code succeeded} or {@code declined}
 * @param amount in the currency's minor unit
 * @param currency ISO 4217 code
 * @param orderReference the merchant's reference
 * @param paymentMethod the test card token
 * @param idempotencyKey the key the charge was created under
 * @param createdAt ISO-8601 instant in UTC
 */
@JsonbPropertyOrder({
  "id",
  "status",
  "amount",
  "currency",
  "orderReference",
  "paymentMethod",
  "idempotencyKey",
  "createdAt"
})
public record ChargeJson(
    String id,
    String status,
    long amount,
    String currency,
    String orderReference,
    String paymentMethod,
    String idempotencyKey,
    String createdAt) {

  /** The API view of a stored charge. */
  public static ChargeJson of(Charge charge) {
    return new ChargeJson(
        charge.id(),
        charge.status().wireName(),
        charge.amount(),
        charge.currency(),
        charge.orderReference(),
        charge.paymentMethod(),
        charge.idempotencyKey(),
        charge.createdAt().toString());
  }
}
