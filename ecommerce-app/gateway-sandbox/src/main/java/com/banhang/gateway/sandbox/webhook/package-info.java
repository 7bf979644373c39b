/**
 * The processor's webhooks to the shop: one {@code charge.succeeded} or {@code charge.failed} event
 * per new charge, recorded in the charge's transaction with a stable id, signed as Standard
 * Webhooks, delivered at least once by a background dispatcher with retries and the webhook faults
 * of {@code fault}, and re-sent on request. May depend on {@code charge} and {@code fault}, never
 * on {@code api}.
 */
package com.banhang.gateway.sandbox.webhook;
