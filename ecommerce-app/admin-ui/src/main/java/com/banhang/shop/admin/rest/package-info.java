/**
 * The operator REST API under {@code /api/v1/admin} (docs/operations.md): what the console shows
 * and does, for automation, with its problem answers (docs/problems.md). Operator role only. An
 * inbound adapter: may depend on {@code admin.application}, the views of {@code payments.api}, the
 * idempotency library's public API and Jakarta REST; nothing depends on it.
 */
package com.banhang.shop.admin.rest;
