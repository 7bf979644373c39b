package com.banhang.events.webhooks;

import java.time.Instant;

/** An endpoint nothing is sent to until an operator re-enables it, and why. */
public record DisabledEndpoint(String endpoint, Instant disabledAt, String reason) {}
