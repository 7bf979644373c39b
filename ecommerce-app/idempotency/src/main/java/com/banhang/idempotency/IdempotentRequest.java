package com.banhang.idempotency;

import com.banhang.idempotency.internal.IdempotentRequestState;
import com.banhang.idempotency.internal.StoredResponses;
import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.util.Optional;

/**
 * The idempotent request being served, for operations that complete their key themselves.
 *
 * <p>A {@link SideEffects#LOCAL} operation needs none of this: the interceptor completes the key in
 * the method's transaction. A {@link SideEffects#REMOTE} operation calls another system with no
 * transaction open, then records the result in a transaction of its own; it calls {@link
 * #complete(Response)} inside that transaction so that the result and the completed key commit
 * together, and returns what it gets back.
 */
@RequestScoped
public class IdempotentRequest {

  @Inject IdempotentRequestState state;
  @Inject IdempotencyKeys records;
  @Inject Event<IdempotencyEvent> events;

  /** The claim this request owns, or empty when the request carried no key. */
  public Optional<ClaimedKey> claim() {
    return Optional.ofNullable(state.claim());
  }

  /**
   * Stores {@code response} as the key's result in the caller's JTA transaction and returns the
   * response to send, built from the very bytes that were stored.
   *
   * @throws ClaimLostException when this request no longer owns the key; the transaction must roll
   *     back
   */
  public Response complete(Response response) {
    ClaimedKey claim = state.claim();
    if (claim == null) {
      return response;
    }
    var stored = records.complete(claim, response);
    state.completedInTransaction(stored);
    events.fire(new IdempotencyEvent(claim.operation(), IdempotencyEvent.Outcome.COMPLETED));
    return StoredResponses.toResponse(stored);
  }
}
