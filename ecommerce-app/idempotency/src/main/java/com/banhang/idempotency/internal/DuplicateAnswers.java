package com.banhang.idempotency.internal;

import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.idempotency.IdempotencyEvent.Kind;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.SideEffects;
import com.banhang.idempotency.spi.IdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What {@link IdempotencyGate} answers a request that does not run the method: a key used for
 * another request (422), the replay of a completed key, a running first attempt (409, after the
 * bounded wait {@code idempotency.in-progress-wait}), an unknown remote outcome (the operation's
 * 409), and a store that cannot decide (503).
 */
@ApplicationScoped
public class DuplicateAnswers {

  private static final Logger LOG = Logger.getLogger(DuplicateAnswers.class.getName());
  private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

  @Inject IdempotencySettings settings;
  @Inject IdempotencyStore store;
  @Inject IdempotencyProblems problems;
  @Inject RequestLifecycle lifecycle;
  @Inject Event<IdempotencyEvent> events;

  /**
   * What a request that did not win the key is told; 503 when the store cannot be read or the
   * stored body cannot be opened (another key, altered, plaintext under encryption).
   */
  Response answer(
      Idempotent policy, ClaimRequest claimRequest, IdempotencyRecord record, Duration claimTime) {
    try {
      return answerFromStore(policy, claimRequest, record, claimTime);
    } catch (IdempotencyStoreUnavailableException e) {
      return unavailable(claimRequest, e, claimTime);
    }
  }

  private Response answerFromStore(
      Idempotent policy, ClaimRequest claimRequest, IdempotencyRecord record, Duration claimTime) {
    String operation = claimRequest.operation();
    String tenant = claimRequest.tenant();
    String key = claimRequest.key();
    if (!record.fingerprint().equals(claimRequest.fingerprint())) {
      events.fire(new IdempotencyEvent(operation, Kind.KEY_REUSED, claimTime, tenant, key));
      return problems.response(
          IdempotencyProblem.KEY_REUSED,
          "this key was used for a different request; use a new key for a new intent",
          operation,
          record.expiresAt());
    }
    IdempotencyRecord current = awaitCompletion(record);
    if (current.completed()) {
      // Opens the stored body first: one that cannot be opened is not counted as a replay.
      Response replay =
          Response.fromResponse(current.response().toResponse())
              .header(IdempotencyGate.REPLAYED_HEADER, "true")
              .build();
      events.fire(new IdempotencyEvent(operation, Kind.REPLAYED, claimTime, tenant, key));
      return replay;
    }
    if (current.outcomeUnknown() && current.response() != null) {
      Response stored = problems.withRetryAfter(current.response().toResponse());
      events.fire(new IdempotencyEvent(operation, Kind.OUTCOME_UNKNOWN, claimTime, tenant, key));
      return stored;
    }
    if (policy.sideEffects() == SideEffects.REMOTE && current.leaseExpired()) {
      // The lease ran out with no answer recorded: the request died (a crash) after its claim,
      // perhaps after the remote call. That is an unknown outcome, not a request still running.
      events.fire(new IdempotencyEvent(operation, Kind.OUTCOME_UNKNOWN, claimTime, tenant, key));
      return problems.outcomeUnknown(
          409,
          policy.outcomeUnknownProblem(),
          "the request with this key ended without an answer; it is being reconciled, retry"
              + " later with the same key",
          operation,
          current.expiresAt());
    }
    events.fire(new IdempotencyEvent(operation, Kind.IN_PROGRESS, claimTime, tenant, key));
    return problems.keyInUse(operation, current.expiresAt());
  }

  /**
   * The bounded wait for a running first attempt; zero by default (answer at once: the client
   * decides). The key is read again every {@link #POLL_INTERVAL} until it completes or the wait
   * ends.
   */
  private IdempotencyRecord awaitCompletion(IdempotencyRecord record) {
    Duration wait = settings.inProgressWait();
    if (record.completed() || record.outcomeUnknown() || wait.isZero()) {
      return record;
    }
    Instant deadline = Instant.now().plus(wait);
    IdempotencyRecord current = record;
    while (!current.completed() && Instant.now().isBefore(deadline)) {
      try {
        Thread.sleep(POLL_INTERVAL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return current;
      }
      current = store.find(record.tenant(), record.operation(), record.key()).orElse(current);
    }
    return current;
  }

  /** 503: the store could not be read or written; nothing was executed. */
  Response unavailable(
      ClaimRequest claimRequest, IdempotencyStoreUnavailableException e, Duration claimTime) {
    String operation = claimRequest.operation();
    LOG.log(Level.WARNING, "idempotency store unavailable; refusing " + operation, e);
    events.fire(
        new IdempotencyEvent(
            operation,
            Kind.STORE_UNAVAILABLE,
            claimTime,
            claimRequest.tenant(),
            claimRequest.key()));
    return problems.storeUnavailable(
        "the request was not executed because its key could not be recorded; retry later",
        operation,
        lifecycle.expiresAt());
  }
}
