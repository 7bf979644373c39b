package com.banhang.idempotency.spi;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.KeyStatistics;
import com.banhang.idempotency.ProcessingPage;
import com.banhang.idempotency.ProcessingQuery;
import com.banhang.idempotency.PurgeRun;
import com.banhang.idempotency.RecordStatus;
import com.banhang.idempotency.StoredResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The store SPI in memory, for tests of the library that need no database: the claim's takeover
 * rules and the fencing of every write are those of the JDBC stores (sql/postgresql holds the
 * reference), on a clock the test moves ({@link #advance}).
 *
 * <p>Transactions are modelled just enough for the gate: while one is open ({@link #begin}), every
 * write is journaled, and {@link #rollback} undoes them all. Unlike a database, a claim inside a
 * transaction is visible at once (as on H2, whose claim writes its row in the transaction).
 *
 * <p>Thread-safe by one lock. What the gate never calls (statistics, paging, purge runs) throws
 * {@link UnsupportedOperationException}.
 */
public final class InMemoryIdempotencyStore
    implements IdempotencyStore, IdempotencyStoreAdministration {

  private record Scope(String tenant, String operation, String key) {}

  private final Map<Scope, IdempotencyRecord> rows = new HashMap<>();
  private Deque<Runnable> undo;
  private Instant now = Instant.parse("2026-01-01T00:00:00Z");
  private boolean unavailable;

  /** The store's clock moves on by {@code duration} (leases and keys expire by it). */
  public synchronized void advance(Duration duration) {
    now = now.plus(duration);
  }

  /** From now on every call fails as a database that cannot be reached, until called with false. */
  public synchronized void unavailable(boolean unavailable) {
    this.unavailable = unavailable;
  }

  /** Opens a transaction: writes from now on are undone by {@link #rollback}. */
  public synchronized void begin() {
    undo = new ArrayDeque<>();
  }

  public synchronized void commit() {
    undo = null;
  }

  public synchronized void rollback() {
    if (undo != null) {
      undo.forEach(Runnable::run);
      undo = null;
    }
  }

  /** How many rows the store holds. */
  public synchronized int size() {
    return rows.size();
  }

  @Override
  public synchronized ClaimResult claim(ClaimRequest request) {
    checkAvailable();
    Scope scope = new Scope(request.tenant(), request.operation(), request.key());
    IdempotencyRecord existing = rows.get(scope);
    if (existing == null) {
      write(scope, fresh(request, 1));
      return new ClaimResult(true, read(scope));
    }
    if (mayTakeOver(existing, request)) {
      write(scope, fresh(request, existing.attempt() + 1));
      return new ClaimResult(true, read(scope));
    }
    return new ClaimResult(false, read(scope));
  }

  @Override
  public synchronized ClaimResult claimInTransaction(ClaimRequest request, Duration lockWait) {
    return claim(request);
  }

  @Override
  public synchronized boolean completeInTransaction(
      IdempotencyRecord claim, StoredResponse response) {
    return complete(claim.claimedKey(), response);
  }

  @Override
  public synchronized boolean complete(ClaimedKey claim, StoredResponse response) {
    return fenced(
        claim,
        r ->
            copy(
                r, RecordStatus.COMPLETED, false, r.attempt(), now, response, r.lastCheck(), null));
  }

  @Override
  public synchronized boolean markOutcomeUnknown(ClaimedKey claim, StoredResponse problem) {
    return fenced(
        claim,
        r ->
            copy(
                r, RecordStatus.PROCESSING, true, r.attempt(), null, problem, r.lastCheck(), null));
  }

  @Override
  public synchronized boolean release(ClaimedKey claim) {
    return fenced(
        claim, r -> copy(r, RecordStatus.RELEASED, false, r.attempt(), null, null, null, null));
  }

  @Override
  public synchronized Optional<IdempotencyRecord> find(
      String tenant, String operation, String key) {
    checkAvailable();
    return Optional.ofNullable(read(new Scope(tenant, operation, key)));
  }

  @Override
  public synchronized List<IdempotencyRecord> findProcessing(
      String operation, Duration minAge, Set<String> skipChecks, int limit) {
    checkAvailable();
    return rows.values().stream()
        .filter(r -> r.operation().equals(operation) && r.status() == RecordStatus.PROCESSING)
        .filter(r -> !r.createdAt().plus(minAge).isAfter(now))
        .filter(r -> r.lastCheck() == null || !skipChecks.contains(r.lastCheck()))
        .sorted(Comparator.comparing(IdempotencyRecord::createdAt))
        .limit(limit)
        .map(r -> withReadAt(r))
        .toList();
  }

  @Override
  public synchronized boolean recordCheck(ClaimedKey claim, String check, String detail) {
    return fenced(
        claim,
        r ->
            new IdempotencyRecord(
                r.tenant(),
                r.operation(),
                r.key(),
                r.requestHash(),
                r.status(),
                r.outcomeUnknown(),
                r.attempt(),
                r.lockedUntil(),
                r.createdAt(),
                r.completedAt(),
                r.expiresAt(),
                r.response(),
                check,
                detail,
                now,
                now));
  }

  @Override
  public synchronized int purgeExpired(int batchSize) {
    checkAvailable();
    List<Scope> expired = new ArrayList<>();
    rows.forEach(
        (scope, r) -> {
          if (r.status() != RecordStatus.PROCESSING && !r.expiresAt().isAfter(now)) {
            expired.add(scope);
          }
        });
    List<Scope> batch = expired.subList(0, Math.min(batchSize, expired.size()));
    batch.forEach(scope -> write(scope, null));
    return batch.size();
  }

  @Override
  public ProcessingPage listProcessing(ProcessingQuery query, int offset, int limit) {
    throw new UnsupportedOperationException("not needed by the gate's tests");
  }

  @Override
  public KeyStatistics statistics() {
    throw new UnsupportedOperationException("not needed by the gate's tests");
  }

  @Override
  public OptionalLong tableSizeBytes() {
    return OptionalLong.empty();
  }

  @Override
  public void recordPurgeRun(PurgeRun run) {
    throw new UnsupportedOperationException("not needed by the gate's tests");
  }

  @Override
  public List<PurgeRun> recentPurgeRuns(int limit) {
    throw new UnsupportedOperationException("not needed by the gate's tests");
  }

  // ------------------------------------------------------------------ the rules

  /**
   * The takeover rules every claim routine shares: a released key; a completed key past its expiry;
   * and, where the request allows it (local operations), a processing key whose lease ran out with
   * no outcome in doubt, for the same request or past the key's expiry.
   */
  private boolean mayTakeOver(IdempotencyRecord r, ClaimRequest request) {
    boolean leaseOver = !r.lockedUntil().isAfter(now);
    boolean expired = !r.expiresAt().isAfter(now);
    return switch (r.status()) {
      case RELEASED -> true;
      case COMPLETED -> expired;
      case PROCESSING ->
          request.takeoverAllowed()
              && !r.outcomeUnknown()
              && leaseOver
              && (r.requestHash().equals(request.requestHash()) || expired);
    };
  }

  /** Applies {@code change} to a processing row that {@code claim}'s attempt still owns. */
  private boolean fenced(ClaimedKey claim, UnaryOperator<IdempotencyRecord> change) {
    checkAvailable();
    Scope scope = new Scope(claim.tenant(), claim.operation(), claim.key());
    IdempotencyRecord r = rows.get(scope);
    if (r == null || r.status() != RecordStatus.PROCESSING || r.attempt() != claim.attempt()) {
      return false;
    }
    write(scope, change.apply(r));
    return true;
  }

  private IdempotencyRecord fresh(ClaimRequest request, int attempt) {
    return new IdempotencyRecord(
        request.tenant(),
        request.operation(),
        request.key(),
        request.requestHash(),
        RecordStatus.PROCESSING,
        false,
        attempt,
        now.plus(request.lease()),
        now,
        null,
        now.plus(request.ttl()),
        null,
        null,
        null,
        null,
        now);
  }

  private IdempotencyRecord copy(
      IdempotencyRecord r,
      RecordStatus status,
      boolean outcomeUnknown,
      int attempt,
      Instant completedAt,
      StoredResponse response,
      String lastCheck,
      String lastCheckDetail) {
    return new IdempotencyRecord(
        r.tenant(),
        r.operation(),
        r.key(),
        r.requestHash(),
        status,
        outcomeUnknown,
        attempt,
        r.lockedUntil(),
        r.createdAt(),
        completedAt,
        r.expiresAt(),
        response,
        lastCheck,
        lastCheckDetail,
        lastCheck == null ? null : r.lastCheckedAt(),
        now);
  }

  private void write(Scope scope, IdempotencyRecord row) {
    IdempotencyRecord before = row == null ? rows.remove(scope) : rows.put(scope, row);
    if (undo != null) {
      undo.push(
          () -> {
            if (before == null) {
              rows.remove(scope);
            } else {
              rows.put(scope, before);
            }
          });
    }
  }

  private IdempotencyRecord read(Scope scope) {
    IdempotencyRecord r = rows.get(scope);
    return r == null ? null : withReadAt(r);
  }

  /** The row as a read now sees it: every time decision is taken against the store's clock. */
  private IdempotencyRecord withReadAt(IdempotencyRecord r) {
    return new IdempotencyRecord(
        r.tenant(),
        r.operation(),
        r.key(),
        r.requestHash(),
        r.status(),
        r.outcomeUnknown(),
        r.attempt(),
        r.lockedUntil(),
        r.createdAt(),
        r.completedAt(),
        r.expiresAt(),
        r.response(),
        r.lastCheck(),
        r.lastCheckDetail(),
        r.lastCheckedAt(),
        now);
  }

  private void checkAvailable() {
    if (unavailable) {
      throw new com.banhang.idempotency.IdempotencyStoreUnavailableException(
          "the in-memory store was made unavailable", null);
    }
  }
}
