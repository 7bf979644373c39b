package com.banhang.gateway.sandbox.api;

import jakarta.json.bind.annotation.JsonbPropertyOrder;

/**
 * Charges of one order reference: {@code GET /v1/stats?orderReference=R}.
 *
 * @param orderReference the reference asked for
 * @param succeededCharges charges that succeeded (more than one means the order was charged twice)
 * @param declinedCharges charges that were declined
 */
@JsonbPropertyOrder({"orderReference", "succeededCharges", "declinedCharges"})
public record OrderStatsJson(String orderReference, long succeededCharges, long declinedCharges) {}
