package com.banhang.gateway.sandbox.charge;

import com.banhang.gateway.sandbox.fault.DropMode;

/** What {@link ChargeService#charge} did, for the HTTP layer to answer. */
public sealed interface ChargeResult {

  /** A new charge was committed (succeeded or declined). */
  record Created(Charge charge) implements ChargeResult {}

  /** The key already holds a charge for the same request: that charge, never a second one. */
  record Replayed(Charge charge) implements ChargeResult {}

  /** The key already holds a charge for a different request. */
  record KeyReused() implements ChargeResult {}

  /** Another request with the key won the insert but its charge could not be read yet. */
  record InProgress() implements ChargeResult {}

  /**
   * Injected fault: the processor failed before charging; nothing was stored (or, on a replay,
   * changed).
   */
  record ProcessorUnavailable() implements ChargeResult {}

  /**
   * Injected fault: the charge was committed (by this call, or by an earlier one it replays with
   * {@code faultsOnReplays}), then its response is to be lost.
   */
  record ResponseDropped(Charge charge, DropMode mode) implements ChargeResult {}

  /**
   * Injected fault: the request for a new key was lost on its way to the processor; nothing was
   * stored, and the client is to get the same failure as for a lost response.
   *
   * @param notCreated the charge the request would have created, never stored; only its shape is
   *     used, so that a {@code RESET} breaks the answer exactly as it breaks a lost response's
   *     (same status line, same promised length), and nothing on the wire tells the two apart
   */
  record RequestLost(Charge notCreated, DropMode mode) implements ChargeResult {}
}
