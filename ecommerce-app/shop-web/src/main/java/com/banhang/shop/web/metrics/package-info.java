/**
 * MicroProfile Metrics fed by the payments context's events (reconciliation, gateway errors, late
 * charges) and the key table's cached statistics (docs/observability.md). May depend on {@code
 * payments.api} and the idempotency library's public API.
 */
package com.banhang.shop.web.metrics;
