package com.banhang.idempotency.spi;

import com.banhang.idempotency.IdempotencyRecord;

/**
 * The answer of one claim: the row as the database holds it after the call, and whether this call
 * became its owner (a new key, a takeover of an expired lease, or a reuse of an expired key).
 */
public record ClaimResult(boolean won, IdempotencyRecord record) {}
