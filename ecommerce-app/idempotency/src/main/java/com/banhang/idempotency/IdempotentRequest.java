package com.banhang.idempotency;

import jakarta.ws.rs.core.Response;
import java.util.Optional;

/**
 * The idempotent request being served, for operations that complete their key themselves.
 *
 * <p>A {@link SideEffects#LOCAL} operation needs none of this: the library completes the key in the
 * method's transaction. A {@link SideEffects#REMOTE} operation calls another system with no
 * transaction open, then records the result in a transaction of its own; it calls {@link
 * #complete(Response)} inside that transaction so that the result and the completed key commit
 * together, and returns what it gets back. Inject it; the library provides the implementation.
 */
public interface IdempotentRequest {

  /** The claim this request owns, or empty when the request carried no key. */
  Optional<ClaimedKey> claim();

  /**
   * Stores {@code response} as the key's result in the caller's JTA transaction and returns the
   * response to send, built from the very bytes that were stored. Without a claim, returns {@code
   * response} unchanged.
   *
   * @throws ClaimLostException when this request no longer owns the key; the transaction must roll
   *     back
   */
  Response complete(Response response);
}
