package com.banhang.idempotency;

import java.time.Instant;

/**
 * One run of the retention purge, kept so that operators see when and where purges ran.
 *
 * @param node the server that ran it
 * @param startedBy {@code schedule}, or the operator's name
 */
public record PurgeRun(
    Instant startedAt, String node, String startedBy, int rowsDeleted, long durationMillis) {}
