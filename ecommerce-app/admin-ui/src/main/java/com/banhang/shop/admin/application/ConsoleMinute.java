package com.banhang.shop.admin.application;

import java.time.Instant;

/**
 * One row of {@code console_minute}: a signal's series in one minute (UTC, truncated to the
 * minute), e.g. {@code reconciliation / CAPTURED / 3}.
 */
public record ConsoleMinute(Instant minute, String signal, String series, long reading) {}
