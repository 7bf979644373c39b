package com.banhang.idempotency.internal;

import com.banhang.idempotency.ClaimLostException;
import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.idempotency.IdempotencyEvent.Kind;
import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import com.banhang.idempotency.OutcomeUnknownException;
import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.internal.RequestLifecycle.Phase;
import com.banhang.idempotency.spi.IdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimResult;
import com.banhang.idempotency.spi.KeyBusyException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The last phase of {@link IdempotencyGate}: what the claim becomes. Completed with the method's
 * response ({@link #complete}); or, when the method did not complete it ({@link #settle}), kept
 * with its outcome unknown, completed with a business rejection, or released.
 */
@ApplicationScoped
public class Settlement {

  private static final Logger LOG = Logger.getLogger(Settlement.class.getName());

  /** IMF-fixdate (RFC 9110, section 5.6.7), the only date format an HTTP sender may produce. */
  private static final DateTimeFormatter HTTP_DATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);

  @Inject IdempotencySettings settings;
  @Inject IdempotencyStore store;
  @Inject IdempotencyProblems problems;
  @Inject RequestLifecycle lifecycle;
  @Inject Event<IdempotencyEvent> events;
  @Inject PhaseSpans spans = new PhaseSpans();

  /**
   * Stores {@code response} as the key's result in the current transaction (the claim's own, when
   * the key was claimed inside it) and returns the response built from the stored bytes.
   *
   * @throws ClaimLostException when this request no longer owns the key
   */
  Response complete(Response response) {
    try (PhaseSpans.Span span = spans.start("complete", lifecycle.claim().operation())) {
      return completeIn(response);
    }
  }

  private Response completeIn(Response response) {
    ClaimedKey claim = lifecycle.claim();
    StoredResponse stored = StoredResponse.capture(response, settings.storedHeaders());
    boolean written =
        lifecycle.claimedInTransaction() != null
            ? store.completeInTransaction(lifecycle.claimedInTransaction(), stored)
            : store.complete(claim, stored);
    if (!written) {
      throw new ClaimLostException(claim);
    }
    lifecycle.completedUncommitted(stored);
    events.fire(event(claim, Kind.COMPLETED));
    return stored.toResponse();
  }

  /**
   * Puts the key's expiry on the answer, and decides what a claim the method did not complete
   * becomes. A success whose transaction rolled back is answered 500 first: its response would
   * describe an effect that never happened.
   */
  void settle(Phase phase, ContainerResponseContext response) {
    if (lifecycle.expiresAt() != null) {
      response
          .getHeaders()
          .putSingle(
              IdempotencyGate.EXPIRES_HEADER,
              HTTP_DATE.format(lifecycle.expiresAt().atOffset(ZoneOffset.UTC)));
    }
    if (phase == Phase.ADMITTED && response.getStatus() < 400) {
      // Admitted, then the method succeeded without the interceptors: the resource is not a CDI
      // bean, or the binding was lost. Nothing was claimed, so nothing protects the key.
      LOG.severe(
          () ->
              "@Idempotent method of "
                  + lifecycle.operation()
                  + " ran without its interceptor; make the resource class a CDI bean");
    }
    if (phase == Phase.ROLLED_BACK && response.getStatus() < 400) {
      response.setStatus(500);
      response.setEntity(
          problems.body(
              IdempotencyProblem.OPERATION_ROLLED_BACK,
              "the operation's transaction was rolled back and nothing was done; retry with the"
                  + " same key",
              lifecycle.operation(),
              lifecycle.expiresAt()),
          null,
          MediaType.valueOf(IdempotencyProblems.MEDIA_TYPE));
    }
    if (phase != Phase.OUTCOME_UNKNOWN
        && phase != Phase.CLAIMED
        && phase != Phase.EXECUTING
        && phase != Phase.ROLLED_BACK) {
      return; // nothing to settle: no claim, the key completed, or the claim was lost
    }
    try (PhaseSpans.Span span = spans.start("settle", lifecycle.operation())) {
      if (phase == Phase.OUTCOME_UNKNOWN) {
        markOutcomeUnknown(response);
      } else {
        releaseOrStoreRejection(phase, response);
      }
    } catch (IdempotencyStoreUnavailableException e) {
      // The answer is already decided; the lease (local) or reconciliation (remote) ends the claim.
      LOG.log(Level.WARNING, "could not settle a claim of " + lifecycle.operation(), e);
    }
  }

  /** The remote effect may have happened: retries get the operation's 409 until reconciled. */
  private void markOutcomeUnknown(ContainerResponseContext response) {
    ClaimedKey claim = lifecycle.claim();
    OutcomeUnknownException unknown = lifecycle.outcomeUnknownCause();
    byte[] problem =
        problems.outcomeUnknownBody(
            409,
            unknown.problemType(),
            unknown.getMessage() + "; it is being reconciled, retry later with the same key",
            claim.operation(),
            lifecycle.expiresAt());
    store.markOutcomeUnknown(
        claim,
        new StoredResponse(409, Map.of("Content-Type", IdempotencyProblems.MEDIA_TYPE), problem));
    response.getHeaders().putSingle("Retry-After", settings.retryAfterSeconds());
    events.fire(event(claim, Kind.MARKED_UNKNOWN));
  }

  /**
   * A decided business rejection (a 4xx after the method started) is final for the key and replayed
   * like a success; any other failure (before the method started, or without a side effect)
   * releases the key so that a retry runs again.
   */
  private void releaseOrStoreRejection(Phase phase, ContainerResponseContext response) {
    ClaimedKey claim = lifecycle.claim();
    int status = response.getStatus();
    if (phase != Phase.CLAIMED && status >= 400 && status < 500) {
      StoredResponse stored =
          StoredResponse.capture(toResponse(response), settings.storedHeaders());
      if (store.complete(claim, stored) || storeRejectionOfARolledBackClaim(stored)) {
        response.setEntity(stored.body());
        lifecycle.rejectionStored(stored);
        events.fire(event(claim, Kind.REJECTION_STORED));
      }
      return;
    }
    if (store.release(claim)) {
      events.fire(event(claim, Kind.RELEASED));
      lifecycle.released();
    } else if (lifecycle.claimedInTransaction() != null) {
      lifecycle
          .released(); // its transaction rolled back and took the claim with it: no row to free
    } else {
      lifecycle.claimLost(); // another attempt owns the key by now
    }
  }

  /**
   * A claim made inside the operation's transaction left no row when that transaction rolled back
   * with the rejection: the key is claimed again, on its own, to keep the decision. Another request
   * that owns the key by now is left alone.
   */
  private boolean storeRejectionOfARolledBackClaim(StoredResponse stored) {
    if (lifecycle.claimedInTransaction() == null) {
      return false;
    }
    ClaimResult again;
    try {
      again = store.claim(lifecycle.claimRequest());
    } catch (KeyBusyException e) {
      return false;
    }
    return again.won() && store.complete(again.record().claimedKey(), stored);
  }

  /** An event about the claimed key; settling follows no lookup, so it has no claim time. */
  private static IdempotencyEvent event(ClaimedKey claim, Kind kind) {
    return new IdempotencyEvent(claim.operation(), kind, null, claim.tenant(), claim.key());
  }

  private static Response toResponse(ContainerResponseContext context) {
    Response.ResponseBuilder builder = Response.status(context.getStatus());
    context.getHeaders().forEach((name, values) -> values.forEach(v -> builder.header(name, v)));
    if (context.getEntity() != null) {
      builder.entity(context.getEntity());
    }
    if (context.getMediaType() != null) {
      builder.type(context.getMediaType());
    }
    return builder.build();
  }
}
