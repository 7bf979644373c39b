/**
 * The shop's WAR: the JAX-RS application under {@code /api}, the schema migrations at start-up, the
 * background jobs (reconciliation, the late-charge sweep, the retention purge), and the idempotency
 * metrics (docs/deployment.md, docs/observability.md). It assembles the contexts, so it may depend
 * on their {@code api} and, for start-up checks and problem mapping, on their application and
 * domain types, and on the idempotency library's public API; no context depends on it.
 */
package com.banhang.shop.web;
