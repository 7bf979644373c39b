package com.banhang.idempotency.internal;

import com.banhang.idempotency.ClaimLostException;
import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.idempotency.IdempotencyEvent.Outcome;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.OutcomeUnknownException;
import com.banhang.idempotency.RecordStatus;
import com.banhang.idempotency.SideEffects;
import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.spi.ClaimRequest;
import com.banhang.idempotency.spi.ClaimResult;
import com.banhang.idempotency.spi.IdempotencyStore;
import com.banhang.idempotency.spi.KeyBusyException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.interceptor.InvocationContext;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The idempotency algorithm around one request, every phase in the order it happens. The filter and
 * the two interceptors only call in here; the request's {@link RequestLifecycle} records where it
 * stands ({@link RequestPhase} lists the phases, their allowed transitions and what a retry finds
 * after a crash in each).
 *
 * <ol>
 *   <li><b>Admit</b> ({@link #admit}, request filter, before JAX-RS binds the parameters): read and
 *       validate the key, bound and fingerprint the body, and answer a completed key from one read
 *       (a replay, or 422 for another fingerprint). Nothing is written.
 *   <li><b>Bind</b> (JAX-RS): a body that fails binding or Bean Validation is answered 400 by the
 *       runtime, and the key is never claimed, so the client may fix it and reuse the key.
 *   <li><b>Claim</b>: one atomic decision by the store on who owns the key. A remote operation's
 *       claim commits on its own before any transaction ({@link #claimBeforeTransaction}); a local
 *       operation's is made inside the method's transaction ({@link #executeInTransaction}), so a
 *       new key costs one commit, the business one.
 *   <li><b>Answer a duplicate</b>: another fingerprint is 422; a completed key is replayed byte for
 *       byte; a running one is 409 (after an optional bounded wait); an unknown remote outcome is
 *       409 with the operation's problem.
 *   <li><b>Execute and complete</b> ({@link #executeInTransaction}): the method runs, and its
 *       response is stored in the method's transaction and sent from the stored bytes. A remote
 *       operation completes the key itself, in its recording transaction ({@link #complete}).
 *   <li><b>Settle</b> ({@link #settle}, response filter): if the method did not complete the key,
 *       decide what the claim becomes: released (failed before the method started, or without a
 *       side effect), completed with a business rejection (a final 4xx decision), or kept with its
 *       outcome unknown.
 * </ol>
 *
 * <p>Every answer to a request whose key was parsed carries {@value #EXPIRES_HEADER}: the expiry of
 * the row that binds the key, or, when none does (a refusal before the claim, 429, 503), the expiry
 * a claim made now would get.
 */
@ApplicationScoped
public class IdempotencyGate {

  public static final String KEY_HEADER = "Idempotency-Key";
  public static final String REPLAYED_HEADER = "Idempotent-Replayed";
  public static final String EXPIRES_HEADER = "Idempotency-Key-Expires";

  private static final Logger LOG = Logger.getLogger(IdempotencyGate.class.getName());
  private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

  @Inject IdempotencySettings settings;
  @Inject IdempotencyStore store;
  @Inject IdempotencyProblems problems;
  @Inject RequestLifecycle life;
  @Inject Event<IdempotencyEvent> events;

  // ---------------------------------------------------------------- 1. Admit (request filter)

  /**
   * Admits the request, or answers what needs no claim: a refusal, a replay of a completed key, a
   * completed key reused with another body. Nothing is written here.
   */
  void admit(Idempotent policy, ContainerRequestContext request) {
    ClaimRequest claimRequest = keyAndFingerprint(policy, request);
    if (claimRequest == null) {
      return; // refused, or no key where one is optional
    }
    if (claimsInTransaction(policy) && !settings.localClaimReadFirst()) {
      // The claim inside the operation's transaction reads the key while it locks it: one round
      // trip answers a new key and a retry alike, so nothing is read here.
      life.keyPresented(claimRequest.operation(), expiryOfAClaimMadeNow(claimRequest.ttl()));
      life.admitted(policy, claimRequest, false);
      return;
    }
    answerFromOneReadOrAdmit(policy, request, claimRequest);
  }

  /**
   * Who calls, the key, and the fingerprint of the path and body: the claim this request would
   * make. Null when the request is refused here (no caller, no key or a bad one, a body that cannot
   * be fingerprinted) or carries no key where one is optional.
   */
  private ClaimRequest keyAndFingerprint(Idempotent policy, ContainerRequestContext request) {
    String operation = policy.operation();
    Duration ttl = settings.ttl(operation, policy.ttl());
    List<String> keyValues = request.getHeaders().get(KEY_HEADER);
    boolean keyPresented = keyValues != null && !keyValues.isEmpty();
    String tenant = IncomingRequest.tenant(request);
    if (tenant == null) {
      tenant = settings.unauthenticatedTenant().orElse(null);
    }
    if (tenant == null && (keyPresented || policy.keyRequired())) {
      // Keys are scoped by who calls: without a caller there is no scope to keep them apart.
      refuse(
          request,
          IdempotencyProblem.AUTHENTICATION_REQUIRED,
          "this operation needs an authenticated caller: its Idempotency-Key is kept per caller",
          operation,
          expiryOfAClaimMadeNow(ttl));
      return null;
    }
    if (tenant != null && !IncomingRequest.usableTenant(tenant)) {
      refuse(
          request,
          IdempotencyProblem.CALLER_NAME_UNUSABLE,
          "this caller's name cannot keep its Idempotency-Keys apart from other callers' (white"
              + " space at either end, a control character, or more than "
              + IncomingRequest.MAX_TENANT_LENGTH
              + " characters): an administrator must rename the account",
          operation,
          expiryOfAClaimMadeNow(ttl));
      return null;
    }
    if (!keyPresented) {
      if (policy.keyRequired()) {
        refuse(
            request,
            IdempotencyProblem.KEY_MISSING,
            "this operation needs an Idempotency-Key header; send a new UUID per intent",
            operation,
            expiryOfAClaimMadeNow(ttl));
      }
      return null;
    }

    String key;
    try {
      key = IdempotencyKeyParser.parse(keyValues);
    } catch (InvalidIdempotencyKeyException e) {
      refuse(
          request,
          IdempotencyProblem.KEY_INVALID,
          e.getMessage(),
          operation,
          expiryOfAClaimMadeNow(ttl));
      return null;
    }
    String fingerprint;
    try {
      fingerprint =
          RequestFingerprint.of(
              operation,
              IncomingRequest.pathParameters(request),
              IncomingRequest.body(request, settings.maxBodyBytes()),
              settings.bodyLimits());
    } catch (RejectedRequestException e) {
      // The key was parsed, so the answer states its expiry.
      life.keyPresented(operation, expiryWithoutAClaim(tenant, operation, key, ttl));
      refuse(request, e.problem(), e.getMessage(), operation, life.expiresAt());
      return null;
    }
    return new ClaimRequest(
        tenant,
        operation,
        key,
        fingerprint,
        settings.lease(),
        ttl,
        policy.sideEffects() == SideEffects.LOCAL);
  }

  /**
   * One primary-key read answers a completed, unexpired key (a replay, or 422 for another
   * fingerprint) before binding, validation and any transaction; every other request is admitted.
   */
  private void answerFromOneReadOrAdmit(
      Idempotent policy, ContainerRequestContext request, ClaimRequest claimRequest) {
    String operation = claimRequest.operation();
    long readStarted = System.nanoTime();
    IdempotencyRecord existing;
    try {
      // Fast path for retries: a completed, unexpired key is answered from one primary-key read,
      // before any write. New keys still go through the claim, the only arbiter of ownership.
      existing = store.find(claimRequest.tenant(), operation, claimRequest.key()).orElse(null);
    } catch (IdempotencyStoreUnavailableException e) {
      life.keyPresented(operation, expiryOfAClaimMadeNow(claimRequest.ttl()));
      request.abortWith(unavailable(operation, e, since(readStarted)));
      life.answered();
      return;
    }
    // Expired or not is the database's clock at the read, never this server's.
    if (existing != null && existing.completed() && !existing.expired()) {
      life.keyPresented(operation, existing.expiresAt());
      request.abortWith(answerDuplicate(policy, claimRequest, existing, since(readStarted)));
      life.answered();
      return;
    }
    // Only a key with no row yet would add a row: that is what the new-key limit counts.
    life.keyPresented(operation, expiryOf(existing, claimRequest.ttl()));
    life.admitted(policy, claimRequest, existing == null);
  }

  // ------------------------------------------- 3. Claim before the transaction (remote operations)

  /**
   * From the first interceptor, once JAX-RS has bound and validated the parameters and before
   * {@code @Transactional} opens a transaction: claims a remote operation's key in a commit of its
   * own, so that the claim is visible to duplicates before the other system is called. Anything
   * else passes through, to be claimed inside its transaction by {@link #executeInTransaction}.
   */
  Object claimBeforeTransaction(InvocationContext invocation) throws Exception {
    if (life.phase() != RequestPhase.ADMITTED || claimsInTransaction(life.policy())) {
      return invocation.proceed();
    }
    Response answer = claimOnItsOwn();
    return answer != null ? answer : invocation.proceed();
  }

  /**
   * The claim committed on its own.
   *
   * @return null when this request won the key; otherwise the answer
   */
  Response claimOnItsOwn() {
    ClaimRequest claimRequest = life.claimRequest();
    Idempotent policy = life.policy();
    String operation = claimRequest.operation();
    if (policy.sideEffects() == SideEffects.REMOTE && life.inTransaction()) {
      // The claim would join that transaction and be invisible to duplicates until it commits,
      // after the remote call: refuse rather than call the other system unprotected.
      throw new IllegalStateException(
          "@Idempotent REMOTE method of "
              + operation
              + " was entered inside a JTA transaction; its claim must commit first");
    }
    // Timed for the claim-latency histogram: the store's decision only, not the bounded wait or
    // the replay that may follow it.
    long claimStarted = System.nanoTime();
    ClaimResult result;
    try {
      if (life.isNewKey()) {
        NewKeyLimits.Decision decision =
            settings.newKeyLimits().tryAcquire(claimRequest.tenant(), operation);
        if (!decision.allowed()) {
          events.fire(new IdempotencyEvent(operation, Outcome.RATE_LIMITED, since(claimStarted)));
          return answered(
              problems.tooManyNewKeys(operation, decision.retryAfter(), life.expiresAt()));
        }
      }
      result = store.claim(claimRequest);
      if (life.isNewKey() && !result.won()) {
        // A concurrent first use of the same key won: this request adds no row.
        settings.newKeyLimits().giveBack(claimRequest.tenant(), operation);
      }
    } catch (IdempotencyStoreUnavailableException e) {
      return answered(unavailable(operation, e, since(claimStarted)));
    }
    Duration claimTime = since(claimStarted);
    IdempotencyRecord record = result.record();
    life.keyExpires(record.expiresAt());
    if (result.won()) {
      life.claimed(record.claimedKey());
      events.fire(new IdempotencyEvent(operation, Outcome.CLAIMED, claimTime));
      return null;
    }
    return answered(answerDuplicate(policy, claimRequest, record, claimTime));
  }

  // ----------------------------- 3 and 5. Claim inside the transaction (local), execute, complete

  /**
   * From the second interceptor, inside the method's JTA transaction: claims a local operation's
   * key there (a key claimed before the transaction arrives {@link RequestPhase#CLAIMED}), runs the
   * method, and stores its response in the same transaction, so the completed key commits with the
   * business rows or not at all. The response sent is built from the stored bytes.
   */
  Object executeInTransaction(InvocationContext invocation) throws Exception {
    if (life.phase() == RequestPhase.ADMITTED) {
      // Without a transaction (a method that is not @Transactional) the claim commits on its own.
      Response answer =
          life.inTransaction() && claimsInTransaction(life.policy())
              ? claimInTransaction()
              : claimOnItsOwn();
      if (answer != null) {
        return answer;
      }
    }
    if (life.phase() != RequestPhase.CLAIMED) {
      return invocation.proceed(); // no key to guard, or a nested call of a guarded one
    }
    life.executing();
    Object result;
    try {
      result = invocation.proceed();
    } catch (OutcomeUnknownException e) {
      life.outcomeUnknown(e);
      throw e;
    } catch (ClaimLostException e) {
      life.claimLost();
      throw e;
    }
    if (life.isCompleted()) {
      return result; // a remote operation completed its key itself ({@link #complete})
    }
    ClaimedKey claim = life.claim();
    StoredResponse stored = StoredResponses.capture((Response) result, settings.storedHeaders());
    boolean written =
        life.claimedInTransaction() != null
            ? store.completeInTransaction(life.claimedInTransaction(), stored)
            : store.complete(claim, stored);
    if (!written) {
      life.claimLost();
      throw new ClaimLostException(claim);
    }
    life.completedUncommitted(stored);
    events.fire(new IdempotencyEvent(claim.operation(), Outcome.COMPLETED));
    return StoredResponses.toResponse(stored);
  }

  /**
   * The claim inside the operation's transaction: it holds the key until that transaction ends, so
   * a concurrent duplicate waits and then sees the completed key (a replay) instead of a running
   * one (409). The key's row is written by the completion, or not at all if the transaction rolls
   * back.
   *
   * @return null when this request won the key; otherwise the answer, which commits nothing
   * @throws AnswerWithRollbackException with the answer when the transaction must roll back
   */
  Response claimInTransaction() {
    ClaimRequest claimRequest = life.claimRequest();
    String operation = claimRequest.operation();
    long claimStarted = System.nanoTime();
    ClaimResult result;
    try {
      result = store.claimInTransaction(claimRequest, settings.localClaimLockWait());
    } catch (KeyBusyException e) {
      // The owner held the key longer than the wait: it is running, as a 409 says.
      events.fire(new IdempotencyEvent(operation, Outcome.IN_PROGRESS, since(claimStarted)));
      throw answeredWithRollback(problems.keyInUse(operation, life.expiresAt()));
    } catch (IdempotencyStoreUnavailableException e) {
      throw answeredWithRollback(unavailable(operation, e, since(claimStarted)));
    }
    Duration claimTime = since(claimStarted);
    IdempotencyRecord record = result.record();
    life.keyExpires(record.expiresAt());
    if (!result.won()) {
      return answered(answerDuplicate(life.policy(), claimRequest, record, claimTime));
    }
    // Attempt 1: the key had no row, so this claim adds one; that is what the limit counts.
    if (record.attempt() == 1) {
      NewKeyLimits.Decision decision =
          settings.newKeyLimits().tryAcquire(claimRequest.tenant(), operation);
      if (!decision.allowed()) {
        events.fire(new IdempotencyEvent(operation, Outcome.RATE_LIMITED, claimTime));
        throw answeredWithRollback(
            problems.tooManyNewKeys(operation, decision.retryAfter(), record.expiresAt()));
      }
    }
    life.claimedInTransaction(record);
    events.fire(new IdempotencyEvent(operation, Outcome.CLAIMED, claimTime));
    return null;
  }

  /**
   * A remote operation's own completion, from {@link IdempotentRequest#complete} inside its
   * recording transaction: stores {@code response} as the key's result and returns the response
   * built from the stored bytes.
   */
  Response complete(Response response) {
    ClaimedKey claim = life.claim();
    if (claim == null) {
      return response;
    }
    StoredResponse stored = StoredResponses.capture(response, settings.storedHeaders());
    if (!store.complete(claim, stored)) {
      throw new ClaimLostException(claim);
    }
    life.completedUncommitted(stored);
    events.fire(new IdempotencyEvent(claim.operation(), Outcome.COMPLETED));
    return StoredResponses.toResponse(stored);
  }

  // ---------------------------------------------------------------- 4. Answer a duplicate

  /**
   * What a request that did not win the key is told; 503 when the store cannot be read or the
   * stored body cannot be opened (another key, altered, plaintext under encryption).
   */
  private Response answerDuplicate(
      Idempotent policy, ClaimRequest claimRequest, IdempotencyRecord record, Duration claimTime) {
    try {
      return answerDuplicateFromStore(policy, claimRequest, record, claimTime);
    } catch (IdempotencyStoreUnavailableException e) {
      return unavailable(claimRequest.operation(), e, claimTime);
    }
  }

  private Response answerDuplicateFromStore(
      Idempotent policy, ClaimRequest claimRequest, IdempotencyRecord record, Duration claimTime) {
    String operation = claimRequest.operation();
    if (!record.requestHash().equals(claimRequest.requestHash())) {
      events.fire(new IdempotencyEvent(operation, Outcome.KEY_REUSED, claimTime));
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
          Response.fromResponse(StoredResponses.toResponse(current.response()))
              .header(REPLAYED_HEADER, "true")
              .build();
      events.fire(new IdempotencyEvent(operation, Outcome.REPLAYED, claimTime));
      return replay;
    }
    if (current.outcomeUnknown() && current.response() != null) {
      Response stored = problems.withRetryAfter(StoredResponses.toResponse(current.response()));
      events.fire(new IdempotencyEvent(operation, Outcome.OUTCOME_UNKNOWN, claimTime));
      return stored;
    }
    if (policy.sideEffects() == SideEffects.REMOTE && current.leaseExpired()) {
      // The lease ran out with no answer recorded: the request died (a crash) after its claim,
      // perhaps after the remote call. That is an unknown outcome, not a request still running.
      events.fire(new IdempotencyEvent(operation, Outcome.OUTCOME_UNKNOWN, claimTime));
      return problems.outcomeUnknown(
          409,
          policy.outcomeUnknownProblem(),
          "the request with this key ended without an answer; it is being reconciled, retry"
              + " later with the same key",
          operation,
          current.expiresAt());
    }
    events.fire(new IdempotencyEvent(operation, Outcome.IN_PROGRESS, claimTime));
    return problems.keyInUse(operation, current.expiresAt());
  }

  /**
   * The bounded wait for a running first attempt; zero by default (answer at once: the client
   * decides).
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

  // ---------------------------------------------------------------- 6. Settle (response filter)

  /**
   * Puts the key's expiry on every answer, and decides what a claim the method did not complete
   * becomes.
   */
  void settle(ContainerRequestContext request, ContainerResponseContext response) {
    RequestPhase phase = life.phase();
    if (phase == RequestPhase.ADMITTED
        && claimsInTransaction(life.policy())
        && !settings.localClaimReadFirst()) {
      // Refused before its claim (binding or validation failed): no read was made on the way in,
      // so the row that may bind the key is read now, on this path only, for its expiry.
      ClaimRequest admitted = life.claimRequest();
      life.keyExpires(
          expiryWithoutAClaim(
              admitted.tenant(), admitted.operation(), admitted.key(), admitted.ttl()));
    }
    if (life.expiresAt() != null) {
      response.getHeaders().putSingle(EXPIRES_HEADER, IncomingRequest.httpDate(life.expiresAt()));
    }
    if (phase == RequestPhase.ADMITTED && response.getStatus() < 400) {
      // Admitted, then the method succeeded without the interceptors: the resource is not a CDI
      // bean, or the binding was lost. Nothing was claimed, so nothing protects the key.
      LOG.severe(
          () ->
              "@Idempotent method of "
                  + life.operation()
                  + " ran without its interceptor; make the resource class a CDI bean");
    }
    if (phase == RequestPhase.ROLLED_BACK && response.getStatus() < 400) {
      // The method returned normally but its transaction rolled back (setRollbackOnly, a failed
      // commit): its response would describe an effect that never happened.
      response.setStatus(500);
      response.setEntity(
          problems.body(
              IdempotencyProblem.OPERATION_ROLLED_BACK,
              "the operation's transaction was rolled back and nothing was done; retry with the"
                  + " same key",
              life.operation(),
              life.expiresAt()),
          null,
          MediaType.valueOf(IdempotencyProblems.MEDIA_TYPE));
    }
    try {
      switch (phase) {
        case OUTCOME_UNKNOWN -> markOutcomeUnknown(response);
        case CLAIMED, EXECUTING, ROLLED_BACK -> releaseOrStoreRejection(phase, response);
        default -> {
          // Nothing to settle: no claim, the key completed, or the claim was lost.
        }
      }
    } catch (IdempotencyStoreUnavailableException e) {
      // The answer is already decided; the lease (local) or reconciliation (remote) ends the claim.
      LOG.log(Level.WARNING, "could not settle a claim of " + life.operation(), e);
    }
  }

  /** The remote effect may have happened: retries get the operation's 409 until reconciled. */
  private void markOutcomeUnknown(ContainerResponseContext response) {
    ClaimedKey claim = life.claim();
    OutcomeUnknownException unknown = life.outcomeUnknownCause();
    byte[] problem =
        problems.outcomeUnknownBody(
            409,
            unknown.problemType(),
            unknown.getMessage() + "; it is being reconciled, retry later with the same key",
            claim.operation(),
            life.expiresAt());
    store.markOutcomeUnknown(
        claim,
        new StoredResponse(409, Map.of("Content-Type", IdempotencyProblems.MEDIA_TYPE), problem));
    response.getHeaders().putSingle("Retry-After", settings.retryAfterSeconds());
    events.fire(new IdempotencyEvent(claim.operation(), Outcome.MARKED_UNKNOWN));
  }

  /**
   * A decided business rejection (a 4xx after the method started) is final for the key and replayed
   * like a success; any other failure (before the method started, or without a side effect)
   * releases the key so that a retry runs again.
   */
  private void releaseOrStoreRejection(RequestPhase phase, ContainerResponseContext response) {
    ClaimedKey claim = life.claim();
    int status = response.getStatus();
    if (phase != RequestPhase.CLAIMED && status >= 400 && status < 500) {
      StoredResponse stored =
          StoredResponses.capture(toResponse(response), settings.storedHeaders());
      if (store.complete(claim, stored) || storeRejectionOfARolledBackClaim(stored)) {
        response.setEntity(stored.body());
        life.rejectionStored(stored);
        events.fire(new IdempotencyEvent(claim.operation(), Outcome.REJECTION_STORED));
      }
      return;
    }
    if (store.release(claim)) {
      events.fire(new IdempotencyEvent(claim.operation(), Outcome.RELEASED));
      life.released();
    } else if (life.claimedInTransaction() != null) {
      life.released(); // its transaction rolled back and took the claim with it: no row to free
    } else {
      life.claimLost(); // another attempt owns the key by now
    }
  }

  /**
   * A claim made inside the operation's transaction left no row when that transaction rolled back
   * with the rejection: the key is claimed again, on its own, to keep the decision. Another request
   * that owns the key by now is left alone.
   */
  private boolean storeRejectionOfARolledBackClaim(StoredResponse stored) {
    if (life.claimedInTransaction() == null) {
      return false;
    }
    ClaimResult again;
    try {
      again = store.claim(life.claimRequest());
    } catch (KeyBusyException e) {
      return false;
    }
    return again.won() && store.complete(again.record().claimedKey(), stored);
  }

  // ---------------------------------------------------------------- Answers and helpers

  /**
   * Whether {@code policy}'s key is claimed inside the operation's own transaction rather than
   * before it: local operations, unless configured otherwise (docs/performance.md, "One commit per
   * new key").
   */
  boolean claimsInTransaction(Idempotent policy) {
    return policy.sideEffects() == SideEffects.LOCAL && settings.localClaimInTransaction();
  }

  /** Refuses the request in the filter with {@code problem}; nothing is written. */
  private void refuse(
      ContainerRequestContext request,
      IdempotencyProblem problem,
      String detail,
      String operation,
      Instant expiresAt) {
    events.fire(new IdempotencyEvent(operation, Outcome.REJECTED));
    request.abortWith(problems.response(problem, detail, operation, expiresAt));
    life.answered();
  }

  /** Records that the request is answered without running the method, and returns the answer. */
  private Response answered(Response answer) {
    life.answered();
    return answer;
  }

  /** As {@link #answered}, for an answer inside a transaction that must roll back. */
  private AnswerWithRollbackException answeredWithRollback(Response answer) {
    life.answered();
    return new AnswerWithRollbackException(answer);
  }

  /** 503: the store could not be read or written; nothing was executed. */
  private Response unavailable(
      String operation, IdempotencyStoreUnavailableException e, Duration claimTime) {
    LOG.log(Level.WARNING, "idempotency store unavailable; refusing " + operation, e);
    events.fire(new IdempotencyEvent(operation, Outcome.STORE_UNAVAILABLE, claimTime));
    return problems.storeUnavailable(
        "the request was not executed because its key could not be recorded; retry later",
        operation,
        life.expiresAt());
  }

  /**
   * The expiry a claim of this key made now would get (the claim itself takes the store's clock, so
   * this is approximate): what a response states for a key that no row binds.
   */
  private static Instant expiryOfAClaimMadeNow(Duration ttl) {
    return Instant.now().plus(ttl);
  }

  /** The row's expiry while a row binds the key; a released tombstone binds nothing. */
  private static Instant expiryOf(IdempotencyRecord existing, Duration ttl) {
    return existing == null || existing.status() == RecordStatus.RELEASED
        ? expiryOfAClaimMadeNow(ttl)
        : existing.expiresAt();
  }

  /**
   * For a body refused before the claim: the row's expiry if a row binds the key, else that of a
   * claim made now. A store that cannot be read does not change the refusal.
   */
  private Instant expiryWithoutAClaim(String tenant, String operation, String key, Duration ttl) {
    try {
      return expiryOf(store.find(tenant, operation, key).orElse(null), ttl);
    } catch (IdempotencyStoreUnavailableException e) {
      return expiryOfAClaimMadeNow(ttl);
    }
  }

  private static Duration since(long startedNanos) {
    return Duration.ofNanos(System.nanoTime() - startedNanos);
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
