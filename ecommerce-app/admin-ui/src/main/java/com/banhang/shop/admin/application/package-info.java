/**
 * The operator console's use cases (docs/operations.md): stuck operations and key lookups, the
 * overview and its timeline, retention, flagged late charges, and the operator actions (reconcile,
 * resolve, purge), each written to the append-only audit ({@code AuditLog}, the only class that
 * names its table). Other contexts are used only through their published {@code api} packages (here
 * {@code payments.api}), the idempotency library only through its public API; never their domain,
 * application, infrastructure or REST code. May depend on nothing else of the shop.
 */
package com.banhang.shop.admin.application;
