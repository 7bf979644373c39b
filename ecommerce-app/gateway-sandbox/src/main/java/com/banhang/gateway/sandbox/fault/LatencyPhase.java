package com.banhang.gateway.sandbox.fault;

/**
 * When the injected latency of a charge call is spent, relative to the moment the charge is
 * committed.
 */
public enum LatencyPhase {
  /** The charge is committed first, then the response waits: "the processor charged late". */
  AFTER_CHARGE,
  /** The request waits first, then the charge is committed and answered at once. */
  BEFORE_CHARGE
}
