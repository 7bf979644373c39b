package com.banhang.shop.payments.api;

/**
 * What the caller of a {@link PaymentResolution} writes beside the resolution's change, in the same
 * transaction (the operator audit, docs/operations.md): called with the resolution's answer just
 * before its change commits. If it throws, the change is rolled back and the resolution answers
 * {@link Resolution.Result#FAILED}: a resolution is never recorded without its audit entry. Not
 * called when the resolution changes nothing (a refusal, a key settled meanwhile); the caller
 * records those itself.
 */
@FunctionalInterface
public interface ResolutionAudit {

  /** Writes nothing: for callers that keep no record. */
  ResolutionAudit NONE = resolution -> {};

  void record(Resolution resolution);
}
