package com.banhang.shop.payments.api;

/**
 * Whether the payment processor answers over the very connection the payments use: the same
 * MicroProfile Rest Client, so the same URL, TLS trust, client certificate and API key
 * (docs/payments.md, "The processor connection"). Readiness asks this, so a shop whose payments
 * cannot reach the processor is never UP, and one whose payments can is never DOWN for a reason the
 * payments do not share.
 */
public interface GatewayReachability {

  /**
   * Asks the processor once (a lookup of a key never used, which charges nothing); never throws.
   */
  GatewayProbe probe();

  /**
   * One probe's result. {@code detail} is for operators only (logs): it may name the URL and carry
   * the transport's exception text, never for an anonymous caller.
   */
  record GatewayProbe(boolean reachable, String detail) {}
}
