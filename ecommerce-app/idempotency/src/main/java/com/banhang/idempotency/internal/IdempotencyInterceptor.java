package com.banhang.idempotency.internal;

import com.banhang.idempotency.ClaimLostException;
import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.OutcomeUnknownException;
import com.banhang.idempotency.StoredResponse;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.ws.rs.core.Response;

/**
 * Runs inside the method's JTA transaction (its priority is after the Jakarta Transactions
 * interceptor's), so the completed key commits with the business rows or not at all. The response
 * is serialised here, stored, and sent from the stored bytes. A local operation's key is claimed
 * here too, inside that transaction ({@link IdempotencyGate#claimInTransaction()}); a remote
 * operation's was claimed just before, by {@link IdempotencyClaimInterceptor}, outside it.
 *
 * <p>The binding's value is a placeholder: every member of {@link Idempotent} is non-binding.
 */
@Idempotent(operation = "*")
@Interceptor
@Priority(Interceptor.Priority.APPLICATION)
public class IdempotencyInterceptor {

  @Inject IdempotentRequestState state;
  @Inject IdempotencyKeys records;
  @Inject IdempotencyGate gate;
  @Inject Event<IdempotencyEvent> events;

  @AroundInvoke
  public Object completeInTransaction(InvocationContext invocation) throws Exception {
    ClaimedKey claim = state.claim();
    if (claim == null && state.isAdmitted() && !state.isClaimAttempted()) {
      // A local operation claims here, inside its transaction; without one (a method that is
      // not @Transactional) the claim commits on its own, as before a transaction.
      Response answer =
          state.inTransaction() && gate.claimsInTransaction(state.admittedPolicy())
              ? gate.claimInTransaction()
              : gate.claimAdmitted();
      if (answer != null) {
        return answer;
      }
      claim = state.claim();
    }
    if (claim == null) {
      return invocation.proceed();
    }
    state.executionStarted();
    Object result;
    try {
      result = invocation.proceed();
    } catch (OutcomeUnknownException e) {
      state.outcomeUnknown(e);
      throw e;
    } catch (ClaimLostException e) {
      state.claimLost();
      throw e;
    }
    if (state.completed() != null) {
      // The method completed the key itself (a remote operation, in its recording transaction).
      return result;
    }
    Response response = (Response) result;
    StoredResponse stored;
    try {
      stored =
          state.claimedInTransaction() != null
              ? gate.completeInTransaction(response)
              : records.complete(claim, response);
    } catch (ClaimLostException e) {
      state.claimLost();
      throw e;
    }
    state.completedInTransaction(stored);
    events.fire(new IdempotencyEvent(claim.operation(), IdempotencyEvent.Outcome.COMPLETED));
    return StoredResponses.toResponse(stored);
  }
}
