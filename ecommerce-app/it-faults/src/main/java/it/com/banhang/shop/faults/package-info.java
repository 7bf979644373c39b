/**
 * Faults the integration suites inject into the shop, never shipped: this module's WAR is the
 * shop's WAR plus these classes, deployed only by the test servers (docs/testing.md, "The test-only
 * fault of OrderIdempotencyIT" and "The aimed crash after the commit").
 */
package it.com.banhang.shop.faults;
