package com.banhang.gateway.sandbox.api;

import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.Map;

/**
 * Charges of all order references: {@code GET /v1/stats}.
 *
 * @param succeededCharges all succeeded charges
 * @param declinedCharges all declined charges
 * @param byOrderReference succeeded charges per order reference (references with none are left out)
 */
@JsonbPropertyOrder({"succeededCharges", "declinedCharges", "byOrderReference"})
public record TotalStatsJson(
    long succeededCharges, long declinedCharges, Map<String, Long> byOrderReference) {}
