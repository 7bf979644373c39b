package com.banhang.idempotency.internal;

import com.banhang.idempotency.ClaimLostException;
import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.idempotency.IdempotencyEvent.Kind;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.IdempotentRequest;
import com.banhang.idempotency.OutcomeUnknownException;
import com.banhang.idempotency.SideEffects;
import com.banhang.idempotency.internal.RequestLifecycle.Phase;
import com.banhang.idempotency.spi.IdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimRequest;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimResult;
import com.banhang.idempotency.spi.KeyBusyException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.interceptor.InvocationContext;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The idempotency algorithm around one request, as a script of its phases in the order they happen:
 * admit, claim, run, settle. The filter and the two interceptors only call in here; {@link
 * RequestLifecycle} records where the request stands ({@link RequestLifecycle.Phase} lists the
 * phases, their transitions and what a retry finds after a crash in each). The work of each phase
 * is in {@link Admission}, {@link DuplicateAnswers} and {@link Settlement}.
 *
 * <ol>
 *   <li><b>Admit</b> (request filter, before JAX-RS binds the parameters): the key and the
 *       fingerprint, or a refusal; a completed key is answered from one read. Nothing is written.
 *   <li><b>Claim</b>, once JAX-RS has bound and validated the parameters (a body it refuses never
 *       claims the key): a remote operation's claim commits on its own before any transaction; a
 *       local operation's is made inside the method's transaction, so a new key costs one commit. A
 *       request that does not win the key gets a duplicate's answer.
 *   <li><b>Run</b> the method; its response is stored in its transaction and sent from the stored
 *       bytes. A remote operation completes the key itself, in its recording transaction.
 *   <li><b>Settle</b> (response filter) a claim the method did not complete.
 * </ol>
 *
 * <p>Every answer to a request whose key was parsed carries {@value #EXPIRES_HEADER}.
 */
@ApplicationScoped
public class IdempotencyGate implements IdempotentRequest {

  public static final String KEY_HEADER = "Idempotency-Key";
  public static final String REPLAYED_HEADER = "Idempotent-Replayed";
  public static final String EXPIRES_HEADER = "Idempotency-Key-Expires";

  @Inject IdempotencySettings settings;
  @Inject IdempotencyStore store;
  @Inject IdempotencyProblems problems;
  @Inject RequestLifecycle lifecycle;
  @Inject Event<IdempotencyEvent> events;
  @Inject Admission admission;
  @Inject DuplicateAnswers duplicates;
  @Inject Settlement settlement;
  @Inject PhaseSpans spans = new PhaseSpans();

  // ---------------------------------------------------------------- 1. Admit (request filter)

  void admit(Idempotent policy, ContainerRequestContext request) {
    try (PhaseSpans.Span span = spans.start("admit", policy.operation())) {
      admitIn(policy, request);
    }
  }

  private void admitIn(Idempotent policy, ContainerRequestContext request) {
    ClaimRequest claimRequest = admission.claimRequest(policy, request);
    if (claimRequest == null) {
      return; // refused, or no key where one is optional
    }
    String operation = claimRequest.operation();
    if (claimsInTransaction(policy) && !settings.localClaimReadFirst()) {
      // The claim inside the transaction reads the key while it locks it: nothing is read here.
      lifecycle.keyPresented(operation, Admission.expiryOfAClaimMadeNow(claimRequest.ttl()));
      lifecycle.admitted(policy, claimRequest, false);
      return;
    }
    // Fast path for retries: a completed, unexpired key (by the database's clock) is answered from
    // one primary-key read, before any write. New keys go on to the claim, the only arbiter.
    long readStarted = System.nanoTime();
    IdempotencyRecord existing;
    try {
      existing = store.find(claimRequest.tenant(), operation, claimRequest.key()).orElse(null);
    } catch (IdempotencyStoreUnavailableException e) {
      lifecycle.keyPresented(operation, Admission.expiryOfAClaimMadeNow(claimRequest.ttl()));
      request.abortWith(answered(duplicates.unavailable(claimRequest, e, since(readStarted))));
      return;
    }
    if (existing != null && existing.completed() && !existing.expired()) {
      lifecycle.keyPresented(operation, existing.expiresAt());
      request.abortWith(
          answered(duplicates.answer(policy, claimRequest, existing, since(readStarted))));
      return;
    }
    // Only a key with no row yet would add a row: that is what the new-key limit counts.
    lifecycle.keyPresented(operation, Admission.expiryOf(existing, claimRequest.ttl()));
    lifecycle.admitted(policy, claimRequest, existing == null);
  }

  // ---------------------------------------------------------------- 2. Claim

  /**
   * From the first interceptor, after binding, before {@code @Transactional}: a remote operation's
   * claim commits on its own here, visible to duplicates before the other system is called.
   */
  Object claimBeforeTransaction(InvocationContext invocation) throws Exception {
    if (lifecycle.phase() != Phase.ADMITTED || claimsInTransaction(lifecycle.policy())) {
      return invocation.proceed();
    }
    Response answer = claimOnItsOwn();
    return answer != null ? answer : invocation.proceed();
  }

  /** The claim committed on its own: null when this request won the key, else the answer. */
  Response claimOnItsOwn() {
    try (PhaseSpans.Span span = spans.start("claim", lifecycle.claimRequest().operation())) {
      return claimOnItsOwnIn();
    }
  }

  private Response claimOnItsOwnIn() {
    ClaimRequest claimRequest = lifecycle.claimRequest();
    String operation = claimRequest.operation();
    if (lifecycle.policy().sideEffects() == SideEffects.REMOTE && lifecycle.inTransaction()) {
      // The claim would join that transaction and be invisible to duplicates until it commits,
      // after the remote call: refuse rather than call the other system unprotected.
      throw new IllegalStateException(
          "@Idempotent REMOTE method of "
              + operation
              + " was entered inside a JTA transaction; its claim must commit first");
    }
    long claimStarted = System.nanoTime(); // the store's decision only, for the latency histogram
    ClaimResult result;
    try {
      if (lifecycle.isNewKey()) {
        Response refused = newKeyRefusal(claimRequest, lifecycle.expiresAt(), claimStarted);
        if (refused != null) {
          return answered(refused);
        }
      }
      result = store.claim(claimRequest);
      if (lifecycle.isNewKey() && !result.won()) {
        // A concurrent first use of the same key won: this request adds no row.
        settings.newKeyLimits().giveBack(claimRequest.tenant(), operation);
      }
    } catch (IdempotencyStoreUnavailableException e) {
      return answered(duplicates.unavailable(claimRequest, e, since(claimStarted)));
    }
    return wonOrAnswered(result, since(claimStarted), false);
  }

  /**
   * The claim inside the operation's transaction: it holds the key until that transaction ends, so
   * a duplicate waits (up to {@code idempotency.local-claim-lock-wait}) and then sees the outcome.
   * An answer that must undo the claim's row is thrown as {@link AnswerWithRollbackException}.
   *
   * @return null when this request won the key, else the answer
   */
  Response claimInTransaction() {
    try (PhaseSpans.Span span = spans.start("claim", lifecycle.claimRequest().operation())) {
      return claimInTransactionIn();
    }
  }

  private Response claimInTransactionIn() {
    ClaimRequest claimRequest = lifecycle.claimRequest();
    String operation = claimRequest.operation();
    long claimStarted = System.nanoTime();
    ClaimResult result;
    try {
      result = store.claimInTransaction(claimRequest, settings.localClaimLockWait());
    } catch (KeyBusyException e) {
      // The owner held the key longer than the wait: it is running, as a 409 says.
      events.fire(
          new IdempotencyEvent(
              operation,
              Kind.IN_PROGRESS,
              since(claimStarted),
              claimRequest.tenant(),
              claimRequest.key()));
      throw answeredWithRollback(problems.keyInUse(operation, lifecycle.expiresAt()));
    } catch (IdempotencyStoreUnavailableException e) {
      throw answeredWithRollback(duplicates.unavailable(claimRequest, e, since(claimStarted)));
    }
    lifecycle.keyExpires(result.record().expiresAt());
    // Attempt 1 of a won claim: the key had no row, so this claim adds one.
    if (result.won() && result.record().attempt() == 1) {
      Response refused = newKeyRefusal(claimRequest, result.record().expiresAt(), claimStarted);
      if (refused != null) {
        throw answeredWithRollback(refused);
      }
    }
    return wonOrAnswered(result, since(claimStarted), true);
  }

  /** Null when the claim won (the lifecycle now owns it), else the duplicate's answer. */
  private Response wonOrAnswered(ClaimResult result, Duration claimTime, boolean inTransaction) {
    IdempotencyRecord record = result.record();
    lifecycle.keyExpires(record.expiresAt());
    if (!result.won()) {
      return answered(
          duplicates.answer(lifecycle.policy(), lifecycle.claimRequest(), record, claimTime));
    }
    if (inTransaction) {
      lifecycle.claimedInTransaction(record);
    } else {
      lifecycle.claimed(record.claimedKey());
    }
    events.fire(
        new IdempotencyEvent(
            record.operation(), Kind.CLAIMED, claimTime, record.tenant(), record.key()));
    return null;
  }

  /** The new-key limit, for a claim that adds a row: null when allowed, else the 429. */
  private Response newKeyRefusal(ClaimRequest request, Instant expiresAt, long claimStarted) {
    NewKeyLimits.Decision decision =
        settings.newKeyLimits().tryAcquire(request.tenant(), request.operation());
    if (decision.allowed()) {
      return null;
    }
    events.fire(
        new IdempotencyEvent(
            request.operation(),
            Kind.RATE_LIMITED,
            since(claimStarted),
            request.tenant(),
            request.key()));
    return problems.tooManyNewKeys(request.operation(), decision.retryAfter(), expiresAt);
  }

  // ---------------------------------------------------------------- 3. Run

  /**
   * From the second interceptor, inside the method's JTA transaction: claims a local operation's
   * key there (one claimed before the transaction arrives claimed), runs the method, and stores its
   * response in the same transaction, so the completed key commits with the business rows or not at
   * all.
   */
  Object executeInTransaction(InvocationContext invocation) throws Exception {
    if (lifecycle.phase() == Phase.ADMITTED) {
      // Without a transaction (a method that is not @Transactional) the claim commits on its own.
      Response answer =
          lifecycle.inTransaction() && claimsInTransaction(lifecycle.policy())
              ? claimInTransaction()
              : claimOnItsOwn();
      if (answer != null) {
        return answer;
      }
    }
    if (lifecycle.phase() != Phase.CLAIMED) {
      return invocation.proceed(); // no key to guard, or a nested call of a guarded one
    }
    lifecycle.executing();
    // The business method: the operation's own work, its transaction's, and its remote calls.
    try (PhaseSpans.Span span = spans.start("execute", lifecycle.operation())) {
      try {
        Object result = invocation.proceed();
        // A remote operation has completed its key itself, through complete(Response).
        return lifecycle.isCompleted() ? result : settlement.complete((Response) result);
      } catch (OutcomeUnknownException e) {
        lifecycle.outcomeUnknown(e);
        span.failed(e);
        throw e;
      } catch (ClaimLostException e) {
        lifecycle.claimLost();
        span.failed(e);
        throw e;
      } catch (Exception e) {
        span.failed(e);
        throw e;
      }
    }
  }

  /** {@link IdempotentRequest}: the claim this request owns, while it owns one. */
  @Override
  public Optional<ClaimedKey> claim() {
    return lifecycle.phase().ownsClaim() ? Optional.of(lifecycle.claim()) : Optional.empty();
  }

  /**
   * {@link IdempotentRequest}: a remote operation completes its key in its recording transaction.
   */
  @Override
  public Response complete(Response response) {
    return lifecycle.claim() == null ? response : settlement.complete(response);
  }

  // ---------------------------------------------------------------- 4. Settle (response filter)

  /** Settles what the request left: the key's expiry on the answer, and an uncompleted claim. */
  void settle(ContainerRequestContext request, ContainerResponseContext response) {
    Phase phase = lifecycle.phase();
    if (phase == Phase.ADMITTED
        && claimsInTransaction(lifecycle.policy())
        && !settings.localClaimReadFirst()) {
      // Refused before its claim (binding or validation failed): no read was made on the way in,
      // so the row that may bind the key is read now, on this path only, for its expiry.
      ClaimRequest admitted = lifecycle.claimRequest();
      lifecycle.keyExpires(
          admission.expiryWithoutAClaim(
              admitted.tenant(), admitted.operation(), admitted.key(), admitted.ttl()));
    }
    settlement.settle(phase, response);
  }

  /** Local operations claim inside their transaction, unless configured otherwise. */
  boolean claimsInTransaction(Idempotent policy) {
    return policy.sideEffects() == SideEffects.LOCAL && settings.localClaimInTransaction();
  }

  /** The request is answered without running the method. */
  private Response answered(Response answer) {
    lifecycle.answered();
    return answer;
  }

  /** As {@link #answered}, for an answer inside a transaction that must roll back. */
  private AnswerWithRollbackException answeredWithRollback(Response answer) {
    lifecycle.answered();
    return new AnswerWithRollbackException(answer);
  }

  private static Duration since(long startedNanos) {
    return Duration.ofNanos(System.nanoTime() - startedNanos);
  }
}
