package com.banhang.idempotency.internal;

import com.banhang.idempotency.ClaimLostException;
import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.idempotency.IdempotencyEvent.Outcome;
import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.OutcomeUnknownException;
import com.banhang.idempotency.SideEffects;
import com.banhang.idempotency.spi.ClaimRequest;
import com.banhang.idempotency.spi.ClaimResult;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.spi.IdempotencyStore;
import com.banhang.idempotency.spi.KeyBusyException;
import com.banhang.idempotency.RecordStatus;
import com.banhang.idempotency.StoredResponse;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The idempotency algorithm around one request, in the order it happens:
 *
 * <ol>
 *   <li><b>admit</b> (request filter, before JAX-RS binds the parameters): read and validate the
 *       key, bound and fingerprint the body, and answer a completed key from one read (a replay, or
 *       422 for another fingerprint). Nothing is written here.
 *   <li>JAX-RS binds and validates the parameters: a body that fails is answered 400 by the
 *       runtime, and the key is never claimed, so the client may fix it and reuse the key.
 *   <li><b>claim</b> ({@link IdempotencyClaimInterceptor}, before any JTA transaction): one atomic
 *       write in the store decides who owns the key.
 *   <li><b>answer a duplicate</b>: another fingerprint is 422; a completed key is replayed byte for
 *       byte; a running one is 409 (after an optional bounded wait); an unknown remote outcome is
 *       409 with the operation's problem.
 *   <li><b>execute</b>: the method runs; {@link IdempotencyInterceptor} stores its response inside
 *       the method's transaction.
 *   <li><b>settle</b>: if the method did not complete the key, decide what the claim becomes:
 *       released (failed before the method started, or failed without a side effect), completed
 *       with a business rejection (a final 4xx decision), or kept with its outcome unknown.
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

  /** IMF-fixdate (RFC 9110 s5.6.7), the only date format an HTTP sender may produce. */
  private static final DateTimeFormatter HTTP_DATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", java.util.Locale.US);

  @Inject IdempotencySettings settings;
  @Inject IdempotencyStore store;
  @Inject IdempotencyProblems problems;
  @Inject IdempotentRequestState state;
  @Inject Event<IdempotencyEvent> events;

  /**
   * Phase 1, from the request filter, before JAX-RS binds and validates the method's parameters:
   * admit the request, and answer what needs no claim (a refusal, a replay of a completed key, a
   * completed key reused with another body). Nothing is written here; a request that passes is
   * claimed by {@link #claimAdmitted()} once its parameters are bound and valid.
   */
  void beforeMethod(Idempotent policy, ContainerRequestContext request) {
    String operation = policy.operation();
    Duration ttl = settings.ttl(operation, policy.ttl());
    List<String> keyValues = request.getHeaders().get(KEY_HEADER);
    boolean keyPresented = keyValues != null && !keyValues.isEmpty();
    String tenant = tenant(request);
    if (tenant == null) {
      tenant = settings.unauthenticatedTenant().orElse(null);
    }
    if (tenant == null && (keyPresented || policy.keyRequired())) {
      // Keys are scoped by who calls: without a caller there is no scope to keep them apart.
      reject(
          request,
          operation,
          problems.response(
              401,
              "authentication-required",
              "Authentication required",
              "this operation needs an authenticated caller: its Idempotency-Key is kept per"
                  + " caller",
              operation,
              expiryOfAClaimMadeNow(ttl)));
      return;
    }
    if (!keyPresented) {
      if (policy.keyRequired()) {
        reject(
            request,
            operation,
            problems.response(
                400,
                "idempotency-key-missing",
                "Idempotency-Key missing",
                "this operation needs an Idempotency-Key header; send a new UUID per intent",
                operation,
                expiryOfAClaimMadeNow(ttl)));
      }
      return;
    }

    // Phase 1: admit.
    String key;
    String fingerprint;
    try {
      key = IdempotencyKeyParser.parse(keyValues);
    } catch (InvalidIdempotencyKeyException e) {
      reject(
          request,
          operation,
          problems.response(
              400,
              "idempotency-key-invalid",
              "Idempotency-Key invalid",
              e.getMessage(),
              operation,
              expiryOfAClaimMadeNow(ttl)));
      return;
    }
    try {
      fingerprint =
          RequestFingerprint.of(
              operation, pathParameters(request), body(request), settings.bodyLimits());
    } catch (RejectedRequestException e) {
      Instant expiresAt = expiryWithoutAClaim(tenant, operation, key, ttl);
      state.keyPresented(operation, expiresAt);
      reject(
          request,
          operation,
          problems.response(
              e.status(), e.problemType(), e.title(), e.getMessage(), operation, expiresAt));
      return;
    }

    ClaimRequest claimRequest =
        new ClaimRequest(
            tenant,
            operation,
            key,
            fingerprint,
            settings.lease(),
            ttl,
            policy.sideEffects() == SideEffects.LOCAL);
    if (claimsInTransaction(policy) && !settings.localClaimReadFirst()) {
      // The claim inside the operation's transaction reads the key while it locks it: one round
      // trip answers a new key and a retry alike, so nothing is read here.
      state.keyPresented(operation, expiryOfAClaimMadeNow(ttl));
      state.admitted(policy, claimRequest, false);
      return;
    }
    long readStarted = System.nanoTime();
    IdempotencyRecord existing;
    try {
      // Fast path for retries: a completed, unexpired key is answered from one primary-key read,
      // before any write. New keys still go through the claim, the only arbiter of ownership.
      existing = store.find(claimRequest.tenant(), operation, claimRequest.key()).orElse(null);
    } catch (IdempotencyStoreUnavailableException e) {
      Duration claimTime = Duration.ofNanos(System.nanoTime() - readStarted);
      Instant expiresAt = expiryOfAClaimMadeNow(ttl);
      state.keyPresented(operation, expiresAt);
      LOG.log(Level.WARNING, "idempotency store unavailable; refusing " + operation, e);
      events.fire(new IdempotencyEvent(operation, Outcome.STORE_UNAVAILABLE, claimTime));
      request.abortWith(storeUnavailable(operation, expiresAt));
      return;
    }
    // Expired or not is the database's clock at the read, never this server's.
    if (existing != null && existing.completed() && !existing.expired()) {
      Duration claimTime = Duration.ofNanos(System.nanoTime() - readStarted);
      state.keyPresented(operation, existing.expiresAt());
      try {
        request.abortWith(answerDuplicate(policy, claimRequest, existing, claimTime));
      } catch (IdempotencyStoreUnavailableException e) {
        // A stored body that cannot be opened (another key, altered, plaintext under encryption).
        LOG.log(Level.WARNING, "cannot answer a retry of " + operation, e);
        events.fire(new IdempotencyEvent(operation, Outcome.STORE_UNAVAILABLE, claimTime));
        request.abortWith(storeUnavailable(operation, existing.expiresAt()));
      }
      return;
    }
    // Admitted. Only a key with no row yet would add a row: that is what the rate limit counts.
    state.keyPresented(operation, expiryOf(existing, ttl));
    state.admitted(policy, claimRequest, existing == null);
  }

  /**
   * Phases 2 and 3, from {@link IdempotencyClaimInterceptor}: JAX-RS has bound and validated the
   * method's parameters (a body that fails either was answered 400 with nothing claimed), and no
   * JTA transaction is open yet, so the claim commits on its own before the method runs.
   *
   * @return null when this request won the claim and the method may run; otherwise the answer
   */
  Response claimAdmitted() {
    ClaimRequest claimRequest = state.admittedRequest();
    Idempotent policy = state.admittedPolicy();
    String operation = claimRequest.operation();
    String tenant = claimRequest.tenant();
    state.claimAttempted();
    if (policy.sideEffects() == SideEffects.REMOTE && state.inTransaction()) {
      // The claim would join that transaction and be invisible to duplicates until it commits,
      // after the remote call: refuse rather than call the other system unprotected.
      throw new IllegalStateException(
          "@Idempotent REMOTE method of "
              + operation
              + " was entered inside a JTA transaction; its claim must commit first");
    }
    ClaimResult result;
    // Timed for the claim-latency histogram: the store's decision only, not the bounded wait or
    // the replay that may follow it.
    long claimStarted = System.nanoTime();
    Duration claimTime;
    try {
      boolean newKey = state.isNewKey();
      if (newKey) {
        NewKeyLimits.Decision decision = settings.newKeyLimits().tryAcquire(tenant, operation);
        if (!decision.allowed()) {
          events.fire(
              new IdempotencyEvent(
                  operation,
                  Outcome.RATE_LIMITED,
                  Duration.ofNanos(System.nanoTime() - claimStarted)));
          return tooManyNewKeys(operation, decision.retryAfter(), state.expiresAt());
        }
      }
      result = store.claim(claimRequest);
      claimTime = Duration.ofNanos(System.nanoTime() - claimStarted);
      if (newKey && !result.won()) {
        // A concurrent first use of the same key won: this request adds no row.
        settings.newKeyLimits().giveBack(tenant, operation);
      }
    } catch (IdempotencyStoreUnavailableException e) {
      claimTime = Duration.ofNanos(System.nanoTime() - claimStarted);
      LOG.log(Level.WARNING, "idempotency store unavailable; refusing " + operation, e);
      events.fire(new IdempotencyEvent(operation, Outcome.STORE_UNAVAILABLE, claimTime));
      return storeUnavailable(operation, state.expiresAt());
    }
    IdempotencyRecord record = result.record();
    state.keyPresented(operation, record.expiresAt());
    if (result.won()) {
      state.claimed(record.claimedKey());
      events.fire(new IdempotencyEvent(operation, Outcome.CLAIMED, claimTime));
      return null;
    }

    // Phase 3: answer a duplicate.
    return answerDuplicateOrUnavailable(policy, claimRequest, record, claimTime);
  }

  /**
   * {@link #answerDuplicate}, or 503 when the stored body cannot be opened (another key, altered,
   * plaintext under encryption).
   */
  private Response answerDuplicateOrUnavailable(
      Idempotent policy, ClaimRequest claimRequest, IdempotencyRecord record, Duration claimTime) {
    try {
      return answerDuplicate(policy, claimRequest, record, claimTime);
    } catch (IdempotencyStoreUnavailableException e) {
      String operation = claimRequest.operation();
      LOG.log(Level.WARNING, "cannot answer a duplicate of " + operation, e);
      events.fire(new IdempotencyEvent(operation, Outcome.STORE_UNAVAILABLE, claimTime));
      return storeUnavailable(operation, record.expiresAt());
    }
  }

  /**
   * Whether {@code policy}'s key is claimed inside the operation's own transaction (by {@link
   * #claimInTransaction()}, from {@link IdempotencyInterceptor}) rather than before it: local
   * operations, unless configured otherwise (docs/performance.md, "One commit per new key").
   */
  boolean claimsInTransaction(Idempotent policy) {
    return policy.sideEffects() == SideEffects.LOCAL && settings.localClaimInTransaction();
  }

  /**
   * Phases 2 and 3 for a local operation, from {@link IdempotencyInterceptor} inside the
   * operation's JTA transaction: the claim holds the key until that transaction ends, so a new key
   * costs the business commit only, and a concurrent duplicate waits and then sees the completed
   * key (a replay) instead of a running one (409). Its row is written by {@link
   * #completeInTransaction}, or not at all if the transaction rolls back.
   *
   * @return null when this request won the claim and the method may run; otherwise the answer,
   *     which commits nothing
   * @throws AnswerWithRollbackException with the answer when the transaction must roll back
   */
  Response claimInTransaction() {
    ClaimRequest claimRequest = state.admittedRequest();
    Idempotent policy = state.admittedPolicy();
    String operation = claimRequest.operation();
    state.claimAttempted();
    long claimStarted = System.nanoTime();
    ClaimResult result;
    try {
      result = store.claimInTransaction(claimRequest, settings.localClaimLockWait());
    } catch (KeyBusyException e) {
      // The owner held the key longer than the wait: it is running, as a 409 says.
      events.fire(
          new IdempotencyEvent(
              operation, Outcome.IN_PROGRESS, Duration.ofNanos(System.nanoTime() - claimStarted)));
      throw new AnswerWithRollbackException(problems.keyInUse(operation, state.expiresAt()));
    } catch (IdempotencyStoreUnavailableException e) {
      LOG.log(Level.WARNING, "idempotency store unavailable; refusing " + operation, e);
      events.fire(
          new IdempotencyEvent(
              operation,
              Outcome.STORE_UNAVAILABLE,
              Duration.ofNanos(System.nanoTime() - claimStarted)));
      throw new AnswerWithRollbackException(storeUnavailable(operation, state.expiresAt()));
    }
    Duration claimTime = Duration.ofNanos(System.nanoTime() - claimStarted);
    IdempotencyRecord record = result.record();
    state.keyPresented(operation, record.expiresAt());
    if (result.won()) {
      // Attempt 1: the key had no row, so this claim adds one; that is what the limit counts.
      if (record.attempt() == 1) {
        NewKeyLimits.Decision decision =
            settings.newKeyLimits().tryAcquire(claimRequest.tenant(), operation);
        if (!decision.allowed()) {
          events.fire(new IdempotencyEvent(operation, Outcome.RATE_LIMITED, claimTime));
          throw new AnswerWithRollbackException(
              tooManyNewKeys(operation, decision.retryAfter(), record.expiresAt()));
        }
      }
      state.claimedInTransaction(record);
      events.fire(new IdempotencyEvent(operation, Outcome.CLAIMED, claimTime));
      return null;
    }
    return answerDuplicateOrUnavailable(policy, claimRequest, record, claimTime);
  }

  /**
   * Writes the key claimed by {@link #claimInTransaction()} as completed with {@code response}, in
   * the operation's transaction: the key's one write.
   *
   * @throws ClaimLostException when the row changed under the claim
   */
  StoredResponse completeInTransaction(Response response) {
    IdempotencyRecord claimed = state.claimedInTransaction();
    StoredResponse stored = StoredResponses.capture(response, settings.storedHeaders());
    if (!store.completeInTransaction(claimed, stored)) {
      throw new ClaimLostException(claimed.claimedKey());
    }
    return stored;
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

  /** 429: this tenant used up its new keys of the operation on this server for now. */
  private Response tooManyNewKeys(String operation, Duration retryAfter, Instant expiresAt) {
    long seconds = Math.max(1, (retryAfter.toMillis() + 999) / 1000);
    return Response.fromResponse(
            problems.response(
                429,
                "too-many-new-keys",
                "Too many new idempotency keys",
                "too many new Idempotency-Keys for this operation; retries of keys already used"
                    + " are still answered; send new keys again after "
                    + seconds
                    + " s",
                operation,
                expiresAt))
        .header("Retry-After", seconds)
        .build();
  }

  private Response answerDuplicate(
      Idempotent policy, ClaimRequest claimRequest, IdempotencyRecord record, Duration claimTime) {
    String operation = claimRequest.operation();
    if (!record.requestHash().equals(claimRequest.requestHash())) {
      events.fire(new IdempotencyEvent(operation, Outcome.KEY_REUSED, claimTime));
      return problems.response(
          422,
          "idempotency-key-reused",
          "Idempotency key reused",
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
      return problems.withRetryAfter(
          problems.response(
              409,
              policy.outcomeUnknownProblem(),
              "Outcome unknown",
              "the request with this key ended without an answer; it is being reconciled, retry"
                  + " later with the same key",
              operation,
              current.expiresAt()));
    }
    events.fire(new IdempotencyEvent(operation, Outcome.IN_PROGRESS, claimTime));
    return problems.keyInUse(operation, current.expiresAt());
  }

  private void reject(ContainerRequestContext request, String operation, Response problem) {
    events.fire(new IdempotencyEvent(operation, Outcome.REJECTED));
    request.abortWith(problem);
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

  void afterMethod(ContainerRequestContext request, ContainerResponseContext response) {
    if (state.isAdmitted()
        && !state.isClaimAttempted()
        && claimsInTransaction(state.admittedPolicy())
        && !settings.localClaimReadFirst()) {
      // Refused before its claim (binding or validation failed): no read was made on the way in,
      // so the row that may bind the key is read now, on this path only, for its expiry.
      ClaimRequest admitted = state.admittedRequest();
      state.keyPresented(
          admitted.operation(),
          expiryWithoutAClaim(
              admitted.tenant(), admitted.operation(), admitted.key(), admitted.ttl()));
    }
    if (state.expiresAt() != null) {
      response.getHeaders().putSingle(EXPIRES_HEADER, httpDate(state.expiresAt()));
    }
    ClaimedKey claim = state.claim();
    if (claim == null
        && state.isAdmitted()
        && !state.isClaimAttempted()
        && response.getStatus() < 400) {
      // Admitted, then the method succeeded without the claim interceptor: the resource is not a
      // CDI bean, or the binding was lost. Nothing was claimed, so nothing protects the key.
      LOG.severe(
          () ->
              "@Idempotent method of "
                  + state.operation()
                  + " ran without its interceptor; make the resource class a CDI bean");
    }
    if (claim == null || state.completed() != null || state.isClaimLost()) {
      return;
    }
    if (state.isCompletionRolledBack() && response.getStatus() < 400) {
      // The method returned normally but its transaction rolled back (setRollbackOnly, a failed
      // commit): its response would describe an effect that never happened.
      response.setStatus(500);
      response.setEntity(
          problems.body(
              500,
              "operation-rolled-back",
              "Operation rolled back",
              "the operation's transaction was rolled back and nothing was done; retry with the"
                  + " same key",
              claim.operation(),
              state.expiresAt()),
          null,
          jakarta.ws.rs.core.MediaType.valueOf(IdempotencyProblems.MEDIA_TYPE));
    }
    // Phase 5: settle a claim the method did not complete.
    try {
      settle(claim, response);
    } catch (IdempotencyStoreUnavailableException e) {
      // The answer is already decided; the lease (local) or reconciliation (remote) ends the claim.
      LOG.log(Level.WARNING, "could not settle a claim of " + claim.operation(), e);
    }
  }

  private void settle(ClaimedKey claim, ContainerResponseContext response) {
    OutcomeUnknownException unknown = state.outcomeUnknown();
    if (unknown != null) {
      byte[] problem =
          problems.body(
              409,
              unknown.problemType(),
              "Outcome unknown",
              unknown.getMessage() + "; it is being reconciled, retry later with the same key",
              claim.operation(),
              state.expiresAt());
      store.markOutcomeUnknown(
          claim,
          new StoredResponse(
              409, java.util.Map.of("Content-Type", IdempotencyProblems.MEDIA_TYPE), problem));
      response.getHeaders().putSingle("Retry-After", settings.retryAfterSeconds());
      events.fire(new IdempotencyEvent(claim.operation(), Outcome.MARKED_UNKNOWN));
      return;
    }
    int status = response.getStatus();
    if (state.isExecutionStarted() && status >= 400 && status < 500) {
      // A decided business rejection: final for this key, replayed like a success.
      StoredResponse stored =
          StoredResponses.capture(toResponse(response), settings.storedHeaders());
      if (store.complete(claim, stored) || storeRejectionOfARolledBackClaim(stored)) {
        response.setEntity(stored.body());
        events.fire(new IdempotencyEvent(claim.operation(), Outcome.REJECTION_STORED));
      }
      return;
    }
    // Failed before the method started (its transaction could not begin) or without a side
    // effect: run again.
    if (store.release(claim)) {
      events.fire(new IdempotencyEvent(claim.operation(), Outcome.RELEASED));
    }
  }

  /**
   * A claim made inside the operation's transaction left no row when that transaction rolled back
   * with the rejection: the key is claimed again, on its own, to keep the decision. Another request
   * that owns the key by now is left alone.
   */
  private boolean storeRejectionOfARolledBackClaim(StoredResponse stored) {
    if (state.claimedInTransaction() == null) {
      return false;
    }
    ClaimResult again;
    try {
      again = store.claim(state.admittedRequest());
    } catch (KeyBusyException e) {
      return false;
    }
    return again.won() && store.complete(again.record().claimedKey(), stored);
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

  private Response storeUnavailable(String operation, Instant expiresAt) {
    return problems.withRetryAfter(
        problems.response(
            503,
            "idempotency-store-unavailable",
            "Idempotency store unavailable",
            "the request was not executed because its key could not be recorded; retry later",
            operation,
            expiresAt));
  }

  private byte[] body(ContainerRequestContext request) throws RejectedRequestException {
    int limit = settings.maxBodyBytes();
    if (request.getLength() > limit) {
      throw tooLarge(limit);
    }
    InputStream in = request.getEntityStream();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try {
      int n;
      while ((n = in.read(buffer)) != -1) {
        out.write(buffer, 0, n);
        if (out.size() > limit) {
          throw tooLarge(limit);
        }
      }
    } catch (IOException e) {
      throw new RejectedRequestException(
          400, "malformed-request-body", "Malformed request body", "the body could not be read");
    }
    byte[] body = out.toByteArray();
    // The method reads the same bytes that were fingerprinted.
    request.setEntityStream(new ByteArrayInputStream(body));
    return body;
  }

  private static RejectedRequestException tooLarge(int limit) {
    return new RejectedRequestException(
        413,
        "request-body-too-large",
        "Request body too large",
        "the body exceeds " + limit + " bytes");
  }

  private static SortedMap<String, String> pathParameters(ContainerRequestContext request) {
    SortedMap<String, String> parameters = new TreeMap<>();
    request
        .getUriInfo()
        .getPathParameters()
        .forEach((name, values) -> parameters.put(name, String.join("/", values)));
    return parameters;
  }

  /**
   * The tenant is whoever authenticated, never something the client writes in the request; null
   * when nobody did (no principal, or one without a name).
   */
  static String tenant(ContainerRequestContext request) {
    Principal principal =
        request.getSecurityContext() == null
            ? null
            : request.getSecurityContext().getUserPrincipal();
    String name = principal == null ? null : principal.getName();
    return name == null || name.isBlank() ? null : name;
  }

  private static String httpDate(Instant instant) {
    return HTTP_DATE.format(instant.atOffset(ZoneOffset.UTC));
  }
}
