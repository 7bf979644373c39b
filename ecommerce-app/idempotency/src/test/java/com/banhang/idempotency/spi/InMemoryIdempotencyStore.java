package com.banhang.idempotency.spi;

import com.banhang.idempotency.BodyResealBatch;
import com.banhang.idempotency.BodyResealRun;
import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.KeyStatistics;
import com.banhang.idempotency.ProcessingPage;
import com.banhang.idempotency.ProcessingQuery;
import com.banhang.idempotency.PurgeRun;
import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimRequest;
import com.banhang.idempotency.spi.IdempotencyStore.ClaimResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The store SPI in memory, both halves, for tests of the library (and of applications) that need no
 * database: the claim's takeover rules, the fencing of every write and what each write leaves in a
 * row are those of the JDBC stores (sql/postgresql holds the reference), on a clock the test moves
 * ({@link #advance}). It runs the SPI's store contract ({@code InMemoryIdempotencyStoreTest}), so
 * that the gate's unit tests built on it see what a database would show them.
 *
 * <p>Transactions are modelled just enough for the gate: while one is open ({@link #begin}), every
 * write is journaled, and {@link #rollback} undoes them all. One transaction at a time, and unlike
 * a database's, its writes are visible to every reader at once, and nothing waits for it.
 *
 * <p>Thread-safe by one lock.
 */
public final class InMemoryIdempotencyStore
    implements IdempotencyStore, IdempotencyStoreAdministration {

  private record Scope(String tenant, String operation, String key) {}

  private final Map<Scope, IdempotencyRecord> rows = new HashMap<>();
  private final List<PurgeRun> purgeRuns = new ArrayList<>();
  private final List<BodyResealRun> resealRuns = new ArrayList<>();
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

  /** The store's clock now: what leases and expiries are stamped by and compared with. */
  public synchronized Instant now() {
    return now;
  }

  /**
   * Moves the claim and the lease of every row {@code by} into the past, as if each had been
   * claimed that much earlier (its expiry stays).
   */
  public synchronized void ageAll(Duration by) {
    rows.replaceAll(
        (scope, r) ->
            new IdempotencyRecord(
                r.tenant(),
                r.operation(),
                r.key(),
                r.fingerprint(),
                r.status(),
                r.outcomeUnknown(),
                r.attempt(),
                r.lockedUntil().minus(by),
                r.createdAt().minus(by),
                r.completedAt(),
                r.expiresAt(),
                r.response(),
                r.lastCheck(),
                r.lastCheckDetail(),
                r.lastCheckedAt(),
                r.readAt()));
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

  /** As the databases do: the lease ends now, and a last check no longer applies. */
  @Override
  public synchronized boolean complete(ClaimedKey claim, StoredResponse response) {
    return fenced(
        claim,
        r ->
            copy(
                r,
                IdempotencyRecord.Status.COMPLETED,
                false,
                now,
                now,
                response,
                null,
                null,
                null));
  }

  /** Still processing, its lease and last check kept, with the problem retries are given. */
  @Override
  public synchronized boolean markOutcomeUnknown(ClaimedKey claim, StoredResponse problem) {
    return fenced(
        claim,
        r ->
            copy(
                r,
                IdempotencyRecord.Status.PROCESSING,
                true,
                r.lockedUntil(),
                r.completedAt(),
                problem,
                r.lastCheck(),
                r.lastCheckDetail(),
                r.lastCheckedAt()));
  }

  /** A tombstone, as the databases leave it: ended now, nothing stored, no check. */
  @Override
  public synchronized boolean release(ClaimedKey claim) {
    return fenced(
        claim,
        r -> copy(r, IdempotencyRecord.Status.RELEASED, false, now, now, null, null, null, null));
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
    if (limit <= 0) {
      return List.of();
    }
    return rows.values().stream()
        .filter(
            r ->
                r.operation().equals(operation)
                    && r.status() == IdempotencyRecord.Status.PROCESSING)
        .filter(r -> r.createdAt().isBefore(now.minus(minAge)))
        .filter(r -> r.lastCheck() == null || !skipChecks.contains(r.lastCheck()))
        // The databases' order: never checked first, then least recently checked, then oldest.
        .sorted(
            Comparator.comparing(
                    IdempotencyRecord::lastCheckedAt,
                    Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparing(IdempotencyRecord::createdAt)
                .thenComparing(IdempotencyRecord::tenant)
                .thenComparing(IdempotencyRecord::key))
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
                r.fingerprint(),
                r.status(),
                r.outcomeUnknown(),
                r.attempt(),
                r.lockedUntil(),
                r.createdAt(),
                r.completedAt(),
                r.expiresAt(),
                r.response(),
                check,
                detail == null || detail.length() <= 1000 ? detail : detail.substring(0, 1000),
                now,
                now));
  }

  @Override
  public synchronized int purgeExpired(int batchSize) {
    checkAvailable();
    List<Scope> expired = new ArrayList<>();
    rows.forEach(
        (scope, r) -> {
          // Strictly before now, as the databases' purge statements compare.
          if (r.status() != IdempotencyRecord.Status.PROCESSING && r.expiresAt().isBefore(now)) {
            expired.add(scope);
          }
        });
    List<Scope> batch = expired.subList(0, Math.min(batchSize, expired.size()));
    batch.forEach(scope -> write(scope, null));
    return batch.size();
  }

  @Override
  public synchronized ProcessingPage listProcessing(ProcessingQuery query, int offset, int limit) {
    checkAvailable();
    List<IdempotencyRecord> matching =
        rows.values().stream()
            .filter(r -> r.status() == IdempotencyRecord.Status.PROCESSING)
            .filter(r -> query.tenant() == null || query.tenant().equals(r.tenant()))
            .filter(r -> query.operation() == null || query.operation().equals(r.operation()))
            .filter(
                r ->
                    ProcessingQuery.NEVER_CHECKED.equals(query.lastCheck())
                        ? r.lastCheck() == null
                        : query.lastCheck() == null || query.lastCheck().equals(r.lastCheck()))
            .filter(
                r -> query.minAge() == null || r.createdAt().isBefore(now.minus(query.minAge())))
            .filter(
                r -> query.claimedFrom() == null || !r.createdAt().isBefore(query.claimedFrom()))
            .filter(
                r -> query.claimedBefore() == null || r.createdAt().isBefore(query.claimedBefore()))
            .sorted(listingOrder(query.sort()))
            .map(this::withReadAt)
            .toList();
    if (limit <= 0) {
      return new ProcessingPage(List.of(), matching.size());
    }
    int from = Math.min(Math.max(0, offset), matching.size());
    return new ProcessingPage(
        matching.subList(from, Math.min(matching.size(), from + limit)), matching.size());
  }

  /** The JDBC stores' ORDER BY: the column either way, empty values last, then tenant and key. */
  private static Comparator<IdempotencyRecord> listingOrder(ProcessingQuery.Sort sort) {
    Comparator<IdempotencyRecord> byColumn =
        switch (sort.column()) {
          case TENANT -> Comparator.comparing(IdempotencyRecord::tenant);
          case OPERATION -> Comparator.comparing(IdempotencyRecord::operation);
          case KEY -> Comparator.comparing(IdempotencyRecord::key);
          case CLAIMED_AT -> Comparator.comparing(IdempotencyRecord::createdAt);
          case LEASE_UNTIL -> Comparator.comparing(IdempotencyRecord::lockedUntil);
          case ATTEMPT -> Comparator.comparingInt(IdempotencyRecord::attempt);
          case OUTCOME_UNKNOWN -> Comparator.comparing(IdempotencyRecord::outcomeUnknown);
          case LAST_CHECK ->
              Comparator.comparing(
                  IdempotencyRecord::lastCheck, Comparator.nullsLast(Comparator.naturalOrder()));
          case LAST_CHECKED_AT ->
              Comparator.comparing(
                  IdempotencyRecord::lastCheckedAt,
                  Comparator.nullsLast(Comparator.naturalOrder()));
        };
    if (sort.descending()) {
      byColumn = descendingNullsLast(sort.column(), byColumn);
    }
    return byColumn.thenComparing(IdempotencyRecord::tenant).thenComparing(IdempotencyRecord::key);
  }

  private static Comparator<IdempotencyRecord> descendingNullsLast(
      ProcessingQuery.Column column, Comparator<IdempotencyRecord> ascending) {
    return switch (column) {
      case LAST_CHECK ->
          Comparator.comparing(
              IdempotencyRecord::lastCheck,
              Comparator.nullsLast(Comparator.<String>naturalOrder().reversed()));
      case LAST_CHECKED_AT ->
          Comparator.comparing(
              IdempotencyRecord::lastCheckedAt,
              Comparator.nullsLast(Comparator.<java.time.Instant>naturalOrder().reversed()));
      default -> ascending.reversed();
    };
  }

  /** The counts the databases' statements make, on the store's clock. */
  @Override
  public synchronized KeyStatistics statistics() {
    checkAvailable();
    KeyStatistics.AgeBucket[] ages = KeyStatistics.AgeBucket.values();
    Map<List<Object>, Long> byBucket = new TreeMap<>(GROUP_ORDER);
    Map<List<Object>, List<IdempotencyRecord>> byStatus = new TreeMap<>(GROUP_ORDER);
    Map<String, Long> expiredLeases = new TreeMap<>();
    for (IdempotencyRecord r : rows.values()) {
      KeyStatistics.AgeBucket age = ages[ages.length - 1];
      for (KeyStatistics.AgeBucket bucket : ages) {
        if (bucket.upperBound() != null && r.createdAt().isAfter(now.minus(bucket.upperBound()))) {
          age = bucket;
          break;
        }
      }
      byBucket.merge(List.of(r.operation(), r.status().name(), age.ordinal()), 1L, Long::sum);
      byStatus
          .computeIfAbsent(List.of(r.operation(), r.status().name()), k -> new ArrayList<>())
          .add(r);
      if (r.status() == IdempotencyRecord.Status.PROCESSING && !r.lockedUntil().isAfter(now)) {
        expiredLeases.merge(r.operation(), 1L, Long::sum);
      }
    }
    List<KeyStatistics.BucketCount> buckets = new ArrayList<>();
    byBucket.forEach(
        (k, n) ->
            buckets.add(
                new KeyStatistics.BucketCount(
                    (String) k.get(0),
                    IdempotencyRecord.Status.valueOf((String) k.get(1)),
                    ages[(Integer) k.get(2)],
                    n)));
    List<KeyStatistics.StatusGroup> groups = new ArrayList<>();
    byStatus.forEach(
        (k, group) ->
            groups.add(
                new KeyStatistics.StatusGroup(
                    (String) k.get(0),
                    IdempotencyRecord.Status.valueOf((String) k.get(1)),
                    group.size(),
                    group.stream()
                        .map(IdempotencyRecord::createdAt)
                        .min(Instant::compareTo)
                        .get())));
    return new KeyStatistics(now, buckets, groups, expiredLeases);
  }

  /** Ordered as the databases' GROUP BY ... ORDER BY: by operation, then status name, then age. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static final Comparator<List<Object>> GROUP_ORDER =
      (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
          int c = ((Comparable) a.get(i)).compareTo(b.get(i));
          if (c != 0) {
            return c;
          }
        }
        return Integer.compare(a.size(), b.size());
      };

  /** Memory has no table size to tell. */
  @Override
  public OptionalLong tableSizeBytes() {
    return OptionalLong.empty();
  }

  @Override
  public synchronized void recordPurgeRun(PurgeRun run) {
    checkAvailable();
    purgeRuns.add(
        new PurgeRun(
            run.startedAt(),
            truncate(run.node(), 255),
            truncate(run.startedBy(), 100),
            run.rowsDeleted(),
            run.durationMillis(),
            run.method(),
            run.partitionsDropped()));
  }

  /** Newest first; of two started at once, the one recorded last first (as the databases' id). */
  @Override
  public synchronized List<PurgeRun> recentPurgeRuns(int limit) {
    checkAvailable();
    if (limit <= 0) {
      return List.of();
    }
    List<PurgeRun> newestFirst = new ArrayList<>(purgeRuns);
    Collections.reverse(newestFirst);
    newestFirst.sort(Comparator.comparing(PurgeRun::startedAt).reversed());
    return List.copyOf(newestFirst.subList(0, Math.min(limit, newestFirst.size())));
  }

  /**
   * Memory keeps bodies as they are, sealed with no key: no row is ever sealed with an old one, so
   * a re-seal batch has nothing to read.
   */
  @Override
  public synchronized BodyResealBatch resealBodies(int batchSize) {
    checkAvailable();
    return new BodyResealBatch(null, 0, 0, 0, Map.of(), 0);
  }

  @Override
  public synchronized long countBodiesWithOldKeys() {
    checkAvailable();
    return 0;
  }

  @Override
  public synchronized void recordResealRun(BodyResealRun run) {
    checkAvailable();
    resealRuns.add(run);
  }

  /** Newest first, as {@link #recentPurgeRuns}. */
  @Override
  public synchronized List<BodyResealRun> recentResealRuns(int limit) {
    checkAvailable();
    if (limit <= 0) {
      return List.of();
    }
    List<BodyResealRun> newestFirst = new ArrayList<>(resealRuns);
    Collections.reverse(newestFirst);
    newestFirst.sort(Comparator.comparing(BodyResealRun::startedAt).reversed());
    return List.copyOf(newestFirst.subList(0, Math.min(limit, newestFirst.size())));
  }

  private static String truncate(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max);
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
              && (r.fingerprint().equals(request.fingerprint()) || expired);
    };
  }

  /** Applies {@code change} to a processing row that {@code claim}'s attempt still owns. */
  private boolean fenced(ClaimedKey claim, UnaryOperator<IdempotencyRecord> change) {
    checkAvailable();
    Scope scope = new Scope(claim.tenant(), claim.operation(), claim.key());
    IdempotencyRecord r = rows.get(scope);
    if (r == null
        || r.status() != IdempotencyRecord.Status.PROCESSING
        || r.attempt() != claim.attempt()) {
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
        request.fingerprint(),
        IdempotencyRecord.Status.PROCESSING,
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
      IdempotencyRecord.Status status,
      boolean outcomeUnknown,
      Instant lockedUntil,
      Instant completedAt,
      StoredResponse response,
      String lastCheck,
      String lastCheckDetail,
      Instant lastCheckedAt) {
    return new IdempotencyRecord(
        r.tenant(),
        r.operation(),
        r.key(),
        r.fingerprint(),
        status,
        outcomeUnknown,
        r.attempt(),
        lockedUntil,
        r.createdAt(),
        completedAt,
        r.expiresAt(),
        response,
        lastCheck,
        lastCheckDetail,
        lastCheckedAt,
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
        r.fingerprint(),
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
