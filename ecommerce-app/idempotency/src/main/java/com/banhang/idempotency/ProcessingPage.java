package com.banhang.idempotency;

import java.util.List;

/** One page of processing rows, oldest first, and how many rows match in all. */
public record ProcessingPage(List<IdempotencyRecord> rows, int total) {}
