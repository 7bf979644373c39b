package com.banhang.shop.admin.application;

import java.time.Instant;

/**
 * One operator action. {@code tenant}, {@code operation} and {@code key} are null for actions on no
 * single key (a purge); {@code reason} is null where none is asked for.
 */
public record AuditEntry(
    long id,
    Instant occurredAt,
    String operator,
    String action,
    String tenant,
    String operation,
    String key,
    String reason,
    String result,
    String detail) {}
