/**
 * Faults the integration suites inject into the shop, never shipped: this module's WAR is the
 * shop's WAR plus these classes, deployed only by the test servers (docs/testing.md, "The test-only
 * fault of OrderIdempotencyIT").
 */
package it.com.banhang.shop.faults;
