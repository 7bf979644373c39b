/**
 * The processor itself: charges once per idempotency key, replays the stored charge for a retry of
 * the same request, refuses a key reused for another, and applies the fault decided for each call;
 * the charges kept with plain JDBC in {@code gateway_charge}. May depend on {@code fault}, never on
 * {@code api}.
 */
package com.banhang.gateway.sandbox.charge;
