package com.banhang.shop.admin.application;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One key as the Key lookup view shows it. {@code maskedBody} is the stored body with money and
 * card fields masked (null when none is stored).
 */
public record KeyDetails(
    KeyRef ref,
    String status,
    boolean outcomeUnknown,
    int attempt,
    String fingerprint,
    Instant createdAt,
    Instant completedAt,
    Instant expiresAt,
    Instant lockedUntil,
    Integer responseStatus,
    Map<String, List<String>> responseHeaders,
    String maskedBody,
    String lastCheck,
    Instant lastCheckedAt) {}
