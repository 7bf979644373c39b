package com.banhang.idempotency.spi;

import java.time.Duration;

/**
 * What a request asks of the store when it presents a key.
 *
 * @param lease how long the winner owns the key before a retry may take it over
 * @param ttl how long the key stays bound to its first result
 * @param takeoverAllowed whether an expired lease may be taken over: only when an abandoned attempt
 *     is known to have had no effect (local operations)
 */
public record ClaimRequest(
    String tenant,
    String operation,
    String key,
    String requestHash,
    Duration lease,
    Duration ttl,
    boolean takeoverAllowed) {}
