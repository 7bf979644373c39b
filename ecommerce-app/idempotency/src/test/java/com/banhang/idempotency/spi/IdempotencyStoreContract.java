package com.banhang.idempotency.spi;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The store SPI's contract ({@link IdempotencyStore} and {@link IdempotencyStoreAdministration};
 * docs/idempotency.md: atomicity and retention), stated without SQL, so that every store runs it:
 * each JDBC store on its database ({@code jdbc.JdbcIdempotencyStoreContract}, which adds what only
 * a database with sessions, locks and its own clock can show) and the in-memory store the gate's
 * unit tests rely on ({@code InMemoryIdempotencyStoreTest}). A store of another application proves
 * itself the same way, from the library's test-jar. Every test starts from an empty store.
 *
 * <p>What a store must give the contract: an empty store and its administration, a transaction to
 * claim in, a way to let time pass and to age the rows, the store's "now", and the resource
 * reference it kept for a completed key.
 */
public abstract class IdempotencyStoreContract {

  protected static final String TENANT = "alice";
  protected static final String OPERATION = "orders.create";
  protected static final String HASH = "a".repeat(64);
  protected static final String OTHER_HASH = "b".repeat(64);
  protected static final Duration LONG = Duration.ofMinutes(10);
  protected static final Duration SHORT_LEASE = Duration.ofMillis(200);
  protected static final Duration SHORT_TTL = Duration.ofSeconds(1);

  protected IdempotencyStore store;
  protected IdempotencyStoreAdministration administration;

  /** A store and its administration, over the same keys. */
  public record StoreUnderTest(
      IdempotencyStore store, IdempotencyStoreAdministration administration) {}

  /**
   * One transaction to claim in: the store as seen inside it, rolled back on close unless ended.
   */
  public interface StoreTransaction extends AutoCloseable {
    IdempotencyStore store();

    void commit() throws Exception;

    void rollback() throws Exception;
  }

  /** An empty store (no key; purge runs may stay), called before every test. */
  protected abstract StoreUnderTest emptyStore() throws Exception;

  /** Opens a transaction in which {@link IdempotencyStore#claimInTransaction} may claim. */
  protected abstract StoreTransaction transaction() throws Exception;

  /** Moves the claim and the lease of every row {@code by} into the past. */
  protected abstract void ageAll(Duration by) throws Exception;

  /** The resource reference the store kept with the completed key ({@code resource_ref}). */
  protected abstract String resourceRef(String key) throws Exception;

  /** Whether the store tells the size of its keys (an in-memory H2 does not). */
  protected abstract boolean reportsTableSize();

  /** Lets {@code duration} pass on the clock the store decides by; by default, waits it out. */
  protected void elapse(Duration duration) throws Exception {
    Thread.sleep(duration.toMillis());
  }

  /**
   * The store's clock now, which leases and expiries are stamped by: by default this machine's,
   * which a database running here shares (the skew tests of the JDBC contract tell them apart).
   */
  protected Instant storeNow() {
    return Instant.now();
  }

  @BeforeEach
  void startFromAnEmptyStore() throws Exception {
    StoreUnderTest empty = emptyStore();
    store = empty.store();
    administration = empty.administration();
  }

  // ------------------------------------------------------------------ claiming

  @Test
  void claim_newKey_wonWithAttempt1AndProcessing() {
    Instant before = storeNow();
    ClaimResult result = store.claim(request(newKey(), HASH, LONG, LONG, false));

    assertThat(result.won()).isTrue();
    IdempotencyRecord record = result.record();
    assertThat(record.attempt()).isEqualTo(1);
    assertThat(record.status()).isEqualTo(IdempotencyRecord.Status.PROCESSING);
    assertThat(record.fingerprint()).isEqualTo(HASH);
    assertThat(record.outcomeUnknown()).isFalse();
    assertThat(record.response()).isNull();
    assertThat(record.completedAt()).isNull();
    assertThat(record.lockedUntil()).isAfter(before.plus(LONG).minusSeconds(5));
    assertThat(record.expiresAt()).isAfter(before.plus(LONG).minusSeconds(5));
  }

  @Test
  void claim_keyAlreadyProcessing_notWonAndSeesTheFirstClaim() {
    String key = newKey();
    ClaimResult first = store.claim(request(key, HASH, LONG, LONG, true));
    ClaimResult second = store.claim(request(key, OTHER_HASH, LONG, LONG, true));

    assertThat(second.won()).isFalse();
    assertThat(second.record().attempt()).isEqualTo(1);
    assertThat(second.record().fingerprint()).isEqualTo(HASH);
    assertThat(second.record().createdAt()).isEqualTo(first.record().createdAt());
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void claim_32ThreadsOnOneNewKey_exactlyOneWinsAndAllSeeTheSameRow() throws Exception {
    String key = newKey();
    List<ClaimResult> results = race(32, () -> store.claim(request(key, HASH, LONG, LONG, false)));

    assertThat(results).filteredOn(ClaimResult::won).hasSize(1);
    assertThat(results)
        .allSatisfy(
            r -> {
              assertThat(r.record().attempt()).isEqualTo(1);
              assertThat(r.record().fingerprint()).isEqualTo(HASH);
              assertThat(r.record().status()).isEqualTo(IdempotencyRecord.Status.PROCESSING);
            });
  }

  @Test
  void claim_sameKeyUnderAnotherTenantOrOperation_independent() {
    String key = newKey();
    ClaimResult alice =
        store.claim(new ClaimRequest("alice", OPERATION, key, HASH, LONG, LONG, false));
    ClaimResult bob =
        store.claim(new ClaimRequest("bob", OPERATION, key, OTHER_HASH, LONG, LONG, false));
    ClaimResult charge =
        store.claim(
            new ClaimRequest("alice", "payments.charge", key, OTHER_HASH, LONG, LONG, false));

    assertThat(List.of(alice, bob, charge))
        .allSatisfy(
            r -> {
              assertThat(r.won()).isTrue();
              assertThat(r.record().attempt()).isEqualTo(1);
            });
    assertThat(store.complete(alice.record().claimedKey(), response("alice"))).isTrue();
    assertThat(store.find("bob", OPERATION, key).orElseThrow().status())
        .isEqualTo(IdempotencyRecord.Status.PROCESSING);
    assertThat(store.find("alice", "payments.charge", key).orElseThrow().fingerprint())
        .isEqualTo(OTHER_HASH);
  }

  // ------------------------------------------------------------------ completing

  @Test
  void complete_byOwner_storesExactResponseReadableByFind() throws Exception {
    String key = newKey();
    ClaimedKey claim = store.claim(request(key, HASH, LONG, LONG, false)).record().claimedKey();
    StoredResponse response = response("created");

    assertThat(store.complete(claim, response)).isTrue();

    IdempotencyRecord record = store.find(TENANT, OPERATION, key).orElseThrow();
    assertThat(record.status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
    assertThat(record.completedAt()).isNotNull();
    assertThat(record.response().status()).isEqualTo(201);
    assertThat(record.response().headers()).containsExactlyEntriesOf(response.headers());
    assertThat(record.response().body()).containsExactly(response.body());
    assertThat(record.response()).isEqualTo(response);
    assertThat(resourceRef(key)).isEqualTo("/api/v1/orders/created");
  }

  @Test
  void claim_afterCompletion_notWonAndReturnsTheStoredResponse() {
    String key = newKey();
    ClaimedKey claim = store.claim(request(key, HASH, LONG, LONG, true)).record().claimedKey();
    store.complete(claim, response("first"));

    ClaimResult again = store.claim(request(key, HASH, SHORT_LEASE, LONG, true));

    assertThat(again.won()).isFalse();
    assertThat(again.record().status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
    assertThat(again.record().attempt()).isEqualTo(1);
    assertThat(again.record().response()).isEqualTo(response("first"));
  }

  // ------------------------------------------------------------------ claiming in the operation's
  // transaction (local operations): one commit per new key

  @Test
  void claimInTransaction_rolledBack_leavesNoRowAndTheKeyFree() throws Exception {
    String key = newKey();
    try (StoreTransaction tx = transaction()) {
      IdempotencyRecord claimed =
          tx.store().claimInTransaction(request(key, HASH, LONG, LONG, true), LONG).record();
      tx.store().completeInTransaction(claimed, response(key));
      tx.rollback();
    }
    assertThat(store.find(TENANT, OPERATION, key)).isEmpty();
    try (StoreTransaction tx = transaction()) {
      assertThat(tx.store().claimInTransaction(request(key, HASH, LONG, LONG, true), LONG).won())
          .isTrue();
    }
  }

  @Test
  void claimInTransaction_completedKey_notWon_returnsTheStoredResponse_writesNothing()
      throws Exception {
    String key = completedKey();
    IdempotencyRecord before = store.find(TENANT, OPERATION, key).orElseThrow();
    try (StoreTransaction tx = transaction()) {
      ClaimResult again = tx.store().claimInTransaction(request(key, HASH, LONG, LONG, true), LONG);

      assertThat(again.won()).isFalse();
      assertThat(again.record().status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
      assertThat(again.record().response()).isEqualTo(response(key));
      tx.commit();
    }
    IdempotencyRecord after = store.find(TENANT, OPERATION, key).orElseThrow();
    assertThat(after.attempt()).isEqualTo(before.attempt());
    assertThat(after.completedAt()).isEqualTo(before.completedAt());
  }

  @Test
  void claimInTransaction_releasedKey_takenOverWithAHigherAttempt() throws Exception {
    String key = newKey();
    store.release(store.claim(request(key, HASH, LONG, LONG, true)).record().claimedKey());
    try (StoreTransaction tx = transaction()) {
      ClaimResult result =
          tx.store().claimInTransaction(request(key, OTHER_HASH, LONG, LONG, true), LONG);
      assertThat(result.won()).isTrue();
      assertThat(result.record().attempt()).isEqualTo(2);
      assertThat(tx.store().completeInTransaction(result.record(), response(key))).isTrue();
      tx.commit();
    }
    IdempotencyRecord stored = store.find(TENANT, OPERATION, key).orElseThrow();
    assertThat(stored.status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
    assertThat(stored.attempt()).isEqualTo(2);
    assertThat(stored.fingerprint()).isEqualTo(OTHER_HASH);
  }

  @Test
  void claimInTransaction_expiredLease_takenOverOnlyWhenAllowed() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, SHORT_LEASE, LONG, true));
    pastShortLease();
    try (StoreTransaction tx = transaction()) {
      assertThat(tx.store().claimInTransaction(request(key, HASH, LONG, LONG, false), LONG).won())
          .as("no takeover allowed")
          .isFalse();
    }
    try (StoreTransaction tx = transaction()) {
      ClaimResult result =
          tx.store().claimInTransaction(request(key, HASH, LONG, LONG, true), LONG);
      assertThat(result.won()).isTrue();
      assertThat(result.record().attempt()).isEqualTo(2);
      assertThat(tx.store().completeInTransaction(result.record(), response(key))).isTrue();
      tx.commit();
    }
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().attempt()).isEqualTo(2);
  }

  @Test
  void completeInTransaction_staleClaim_isRefusedAndChangesNothing() throws Exception {
    String key = newKey();
    IdempotencyRecord claimed;
    try (StoreTransaction tx = transaction()) {
      claimed = tx.store().claimInTransaction(request(key, HASH, LONG, LONG, true), LONG).record();
      tx.store().completeInTransaction(claimed, response("first"));
      tx.commit();
    }
    try (StoreTransaction tx = transaction()) {
      assertThat(tx.store().completeInTransaction(claimed, response("second")))
          .as("a claim already completed cannot write again")
          .isFalse();
      tx.rollback();
    }
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().response())
        .isEqualTo(response("first"));
  }

  @Test
  void completeInTransaction_takeoverWhoseRowAnOldOwnerCompletedMeanwhile_isRefused()
      throws Exception {
    String key = newKey();
    ClaimedKey oldOwner =
        store.claim(request(key, HASH, SHORT_LEASE, LONG, true)).record().claimedKey();
    pastShortLease();
    IdempotencyRecord takeover;
    try (StoreTransaction tx = transaction()) {
      takeover = tx.store().claimInTransaction(request(key, HASH, LONG, LONG, true), LONG).record();
      assertThat(takeover.attempt()).isEqualTo(2);
      tx.rollback();
    }
    // The old owner finishes after all (its lease had run out, not its work).
    assertThat(store.complete(oldOwner, response("old"))).isTrue();
    try (StoreTransaction tx = transaction()) {
      assertThat(tx.store().completeInTransaction(takeover, response("new"))).isFalse();
      tx.rollback();
    }
    IdempotencyRecord stored = store.find(TENANT, OPERATION, key).orElseThrow();
    assertThat(stored.attempt()).isEqualTo(1);
    assertThat(stored.response()).isEqualTo(response("old"));
  }

  // ------------------------------------------------------------------ leases and fencing

  @Test
  void claim_expiredLeaseTakeoverAllowedSameHash_wonWithAttempt2() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, SHORT_LEASE, LONG, true));
    pastShortLease();

    ClaimResult takeover = store.claim(request(key, HASH, LONG, LONG, true));

    assertThat(takeover.won()).isTrue();
    assertThat(takeover.record().attempt()).isEqualTo(2);
    assertThat(takeover.record().status()).isEqualTo(IdempotencyRecord.Status.PROCESSING);
    assertThat(takeover.record().lockedUntil()).isAfter(storeNow().plus(LONG).minusSeconds(5));
  }

  @Test
  void claim_expiredLeaseTakeoverNotAllowed_notWon() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, SHORT_LEASE, LONG, false));
    pastShortLease();

    ClaimResult retry = store.claim(request(key, HASH, LONG, LONG, false));

    assertThat(retry.won()).isFalse();
    assertThat(retry.record().attempt()).isEqualTo(1);
  }

  @Test
  void claim_abandonedLocalClaimPastItsTtl_wonByAnyRequest() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, SHORT_LEASE, SHORT_TTL, true));
    pastShortTtl();

    ClaimResult retry = store.claim(request(key, OTHER_HASH, LONG, LONG, true));
    ClaimResult remote =
        store.claim(request(newKeyClaimedAndAbandoned(), OTHER_HASH, LONG, LONG, false));

    assertThat(retry.won()).isTrue();
    assertThat(retry.record().attempt()).isEqualTo(2);
    assertThat(retry.record().fingerprint()).isEqualTo(OTHER_HASH);
    assertThat(remote.won()).as("a remote claim is never taken over").isFalse();
  }

  private String newKeyClaimedAndAbandoned() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, SHORT_LEASE, SHORT_TTL, false));
    pastShortTtl();
    return key;
  }

  @Test
  void claim_expiredLeaseOtherHash_notWon() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, SHORT_LEASE, LONG, true));
    pastShortLease();

    ClaimResult retry = store.claim(request(key, OTHER_HASH, LONG, LONG, true));

    assertThat(retry.won()).isFalse();
    assertThat(retry.record().attempt()).isEqualTo(1);
    assertThat(retry.record().fingerprint()).isEqualTo(HASH);
  }

  @Test
  void claim_expiredLeaseWithOutcomeUnknown_notWon() throws Exception {
    String key = newKey();
    ClaimedKey claim =
        store.claim(request(key, HASH, SHORT_LEASE, LONG, true)).record().claimedKey();
    assertThat(store.markOutcomeUnknown(claim, problem())).isTrue();
    pastShortLease();

    ClaimResult retry = store.claim(request(key, HASH, LONG, LONG, true));

    assertThat(retry.won()).isFalse();
    assertThat(retry.record().attempt()).isEqualTo(1);
    assertThat(retry.record().outcomeUnknown()).isTrue();
    assertThat(retry.record().status()).isEqualTo(IdempotencyRecord.Status.PROCESSING);
    assertThat(retry.record().response()).isEqualTo(problem());
  }

  @Test
  void staleOwner_afterTakeover_cannotCompleteReleaseOrMarkUnknown() throws Exception {
    String key = newKey();
    ClaimedKey stale =
        store.claim(request(key, HASH, SHORT_LEASE, LONG, true)).record().claimedKey();
    pastShortLease();
    ClaimedKey owner = store.claim(request(key, HASH, LONG, LONG, true)).record().claimedKey();
    assertThat(owner.attempt()).isEqualTo(2);
    IdempotencyRecord before = store.find(TENANT, OPERATION, key).orElseThrow();

    assertThat(store.complete(stale, response("stale"))).isFalse();
    assertThat(store.markOutcomeUnknown(stale, problem())).isFalse();
    assertThat(store.release(stale)).isFalse();
    assertThat(
            store
                .find(TENANT, OPERATION, key)
                .map(unchanged -> withReadAt(unchanged, before.readAt())))
        .contains(before);

    assertThat(store.complete(owner, response("owner"))).isTrue();
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().response())
        .isEqualTo(response("owner"));
  }

  @Test
  void owner_afterCompletion_cannotWriteAgain() {
    String key = newKey();
    ClaimedKey claim = store.claim(request(key, HASH, LONG, LONG, false)).record().claimedKey();
    store.complete(claim, response("first"));

    assertThat(store.complete(claim, response("second"))).isFalse();
    assertThat(store.markOutcomeUnknown(claim, problem())).isFalse();
    assertThat(store.release(claim)).isFalse();
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().response())
        .isEqualTo(response("first"));
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void claim_16ThreadsTakingOverOneExpiredLease_exactlyOneWins() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, SHORT_LEASE, LONG, true));
    pastShortLease();

    List<ClaimResult> results = race(16, () -> store.claim(request(key, HASH, LONG, LONG, true)));

    assertThat(results)
        .filteredOn(ClaimResult::won)
        .hasSize(1)
        .allSatisfy(r -> assertThat(r.record().attempt()).isEqualTo(2));
    assertThat(results).allSatisfy(r -> assertThat(r.record().attempt()).isEqualTo(2));
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().attempt()).isEqualTo(2);
  }

  // ------------------------------------------------------------------ releasing and expiry

  @Test
  void release_byOwner_soTheNextClaimWinsWithAHigherAttempt() {
    String key = newKey();
    ClaimedKey claim = store.claim(request(key, HASH, LONG, LONG, false)).record().claimedKey();

    assertThat(store.release(claim)).isTrue();
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().status())
        .isEqualTo(IdempotencyRecord.Status.RELEASED);

    ClaimResult next = store.claim(request(key, OTHER_HASH, LONG, LONG, false));
    assertThat(next.won()).isTrue();
    assertThat(next.record().attempt()).isEqualTo(2);
    assertThat(next.record().status()).isEqualTo(IdempotencyRecord.Status.PROCESSING);
    assertThat(next.record().fingerprint()).isEqualTo(OTHER_HASH);
  }

  @Test
  void staleOwner_afterReleaseAndNewClaim_cannotReleaseOrCompleteTheNewClaim() {
    String key = newKey();
    ClaimedKey first = store.claim(request(key, HASH, LONG, LONG, false)).record().claimedKey();
    assertThat(store.release(first)).isTrue();
    ClaimedKey second = store.claim(request(key, HASH, LONG, LONG, false)).record().claimedKey();

    assertThat(store.release(first)).isFalse();
    assertThat(store.complete(first, new StoredResponse(201, Map.of(), new byte[] {1}))).isFalse();
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().status())
        .isEqualTo(IdempotencyRecord.Status.PROCESSING);
    assertThat(store.complete(second, new StoredResponse(201, Map.of(), new byte[] {1}))).isTrue();
  }

  @Test
  void claim_completedKeyPastItsTtl_wonAgainEvenWithAnotherHash() throws Exception {
    String key = newKey();
    ClaimedKey first =
        store.claim(request(key, HASH, LONG, SHORT_TTL, false)).record().claimedKey();
    store.complete(first, response("first"));
    pastShortTtl();

    ClaimResult again = store.claim(request(key, OTHER_HASH, LONG, LONG, false));

    assertThat(again.won()).isTrue();
    assertThat(again.record().status()).isEqualTo(IdempotencyRecord.Status.PROCESSING);
    assertThat(again.record().fingerprint()).isEqualTo(OTHER_HASH);
    assertThat(again.record().response()).isNull();
    assertThat(again.record().completedAt()).isNull();
    assertThat(again.record().attempt()).isGreaterThan(first.attempt());
    assertThat(store.complete(first, response("late"))).isFalse();
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void claim_16ThreadsReusingOneExpiredCompletedKey_exactlyOneWins() throws Exception {
    String key = newKey();
    ClaimedKey first =
        store.claim(request(key, HASH, LONG, SHORT_TTL, false)).record().claimedKey();
    store.complete(first, response("first"));
    pastShortTtl();

    List<ClaimResult> results =
        race(16, () -> store.claim(request(key, OTHER_HASH, LONG, LONG, false)));

    assertThat(results).filteredOn(ClaimResult::won).hasSize(1);
    assertThat(results)
        .allSatisfy(
            r -> {
              assertThat(r.record().status()).isEqualTo(IdempotencyRecord.Status.PROCESSING);
              assertThat(r.record().fingerprint()).isEqualTo(OTHER_HASH);
              assertThat(r.record().attempt()).isEqualTo(results.get(0).record().attempt());
            });
  }

  @Test
  void purgeExpired_completedRowsPastTtl_deletedInBatchesOfTheGivenSize() throws Exception {
    List<String> expiring = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String key = newKey();
      expiring.add(key);
      store.complete(
          store.claim(request(key, HASH, LONG, SHORT_TTL, false)).record().claimedKey(),
          response(key));
    }
    String kept = newKey();
    store.complete(
        store.claim(request(kept, HASH, LONG, LONG, false)).record().claimedKey(), response(kept));
    String processing = newKey();
    store.claim(request(processing, HASH, LONG, SHORT_TTL, false));
    pastShortTtl();

    List<String> reached = new ArrayList<>();
    for (String key : expiring) {
      if (batchedPurgeReaches(key)) {
        reached.add(key);
      }
    }
    for (int left = reached.size(); left > 0; left -= 2) {
      assertThat(administration.purgeExpired(2)).isEqualTo(Math.min(2, left));
    }
    assertThat(administration.purgeExpired(2)).isZero();

    for (String key : expiring) {
      assertThat(store.find(TENANT, OPERATION, key).isPresent())
          .as("key %s: a row the batches do not reach waits for its partition's drop", key)
          .isEqualTo(!reached.contains(key));
    }
    assertThat(store.find(TENANT, OPERATION, kept)).isPresent();
    assertThat(store.find(TENANT, OPERATION, processing)).isPresent();
  }

  @Test
  void purgeExpired_processingRowPastItsExpiry_neverDeleted() throws Exception {
    String key = newKey();
    store.claim(request(key, HASH, SHORT_LEASE, SHORT_TTL, true));
    pastShortTtl();

    assertThat(administration.purgeExpired(100)).isZero();

    IdempotencyRecord record = store.find(TENANT, OPERATION, key).orElseThrow();
    assertThat(record.status()).isEqualTo(IdempotencyRecord.Status.PROCESSING);
    assertThat(record.expiresAt()).isBefore(storeNow());
  }

  // ------------------------------------------------------------------ reconciliation's view

  @Test
  void findProcessing_returnsOnlyProcessingRowsOfTheOperationClaimedBefore_oldestFirst()
      throws Exception {
    String oldest = claimProcessing(OPERATION);
    String middle = claimProcessing(OPERATION);
    String youngest = claimProcessing(OPERATION);
    String completed = newKey();
    store.complete(
        store.claim(request(completed, HASH, LONG, LONG, false)).record().claimedKey(),
        response("c"));
    claimProcessing("payments.charge");
    ageAll(Duration.ofMinutes(1));
    claimProcessing(OPERATION);
    Duration minAge = Duration.ofSeconds(30);

    assertThat(keys(administration.findProcessing(OPERATION, minAge, 10)))
        .containsExactly(oldest, middle, youngest);
    assertThat(keys(administration.findProcessing(OPERATION, minAge, 2)))
        .containsExactly(oldest, middle);
    assertThat(administration.findProcessing(OPERATION, minAge, 10))
        .allSatisfy(
            r -> {
              assertThat(r.operation()).isEqualTo(OPERATION);
              assertThat(r.status()).isEqualTo(IdempotencyRecord.Status.PROCESSING);
              assertThat(r.age()).isGreaterThanOrEqualTo(minAge);
            });
  }

  @Test
  void findProcessing_moreParkedRowsThanOneBatch_stillReachesTheOthers() throws Exception {
    // Rows only an operator can settle must not fill every batch a reconciler examines.
    for (int i = 0; i < 12; i++) {
      ClaimedKey parked =
          store
              .claim(new ClaimRequest(TENANT, OPERATION, newKey(), HASH, LONG, LONG, true))
              .record()
              .claimedKey();
      assertThat(
              administration.recordCheck(
                  parked, "NEEDS_OPERATOR", "older than the gateway keeps keys"))
          .isTrue();
    }
    String unreachable = claimProcessing(OPERATION);
    administration.recordCheck(
        store.find(TENANT, OPERATION, unreachable).orElseThrow().claimedKey(),
        "GATEWAY_UNREACHABLE",
        null);
    String fresh = claimProcessing(OPERATION);
    ageAll(Duration.ofMinutes(1));
    Duration cutoff = Duration.ofSeconds(30);

    assertThat(keys(administration.findProcessing(OPERATION, cutoff, 10))).hasSize(10);
    // The never-checked key comes before the one whose check failed (least recently checked first).
    assertThat(keys(administration.findProcessing(OPERATION, cutoff, Set.of("NEEDS_OPERATOR"), 10)))
        .containsExactly(fresh, unreachable);
    assertThat(
            keys(
                administration.findProcessing(
                    OPERATION, cutoff, Set.of("NEEDS_OPERATOR", "GATEWAY_UNREACHABLE"), 10)))
        .containsExactly(fresh);
  }

  @Test
  void findProcessing_leastRecentlyCheckedFirst_neverCheckedThenByLastCheckThenByClaim()
      throws Exception {
    String oldest = claimProcessing(OPERATION);
    String middle = claimProcessing(OPERATION);
    String youngest = claimProcessing(OPERATION);
    // The oldest key's check keeps failing: checked after the middle one, most recently of all.
    check(middle, "GATEWAY_UNREACHABLE");
    elapse(Duration.ofMillis(5));
    check(oldest, "GATEWAY_UNREACHABLE");
    ageAll(Duration.ofMinutes(1));
    Duration minAge = Duration.ofSeconds(30);

    assertThat(keys(administration.findProcessing(OPERATION, minAge, 10)))
        .containsExactly(youngest, middle, oldest);
    assertThat(keys(administration.findProcessing(OPERATION, minAge, Set.of("NEEDS_OPERATOR"), 10)))
        .containsExactly(youngest, middle, oldest);
  }

  @Test
  void findProcessing_batchesOfOne_reachEveryKeyInTurn_notTheSameFailingKeyEachTime()
      throws Exception {
    String oldest = claimProcessing(OPERATION);
    String middle = claimProcessing(OPERATION);
    String youngest = claimProcessing(OPERATION);
    ageAll(Duration.ofMinutes(1));
    Duration minAge = Duration.ofSeconds(30);

    // A reconciler whose every check fails: each run records a check on the one key it examined.
    List<String> examined = new ArrayList<>();
    for (int run = 0; run < 6; run++) {
      List<IdempotencyRecord> batch = administration.findProcessing(OPERATION, minAge, 1);
      assertThat(batch).hasSize(1);
      examined.add(batch.get(0).key());
      check(batch.get(0).key(), "GATEWAY_UNREACHABLE");
      elapse(Duration.ofMillis(5));
    }

    assertThat(examined).containsExactly(oldest, middle, youngest, oldest, middle, youngest);
  }

  @Test
  void recordCheck_ownedRow_isRecorded_staleAttemptOrFinishedRow_isNot() throws Exception {
    String key = newKey();
    ClaimedKey claim = store.claim(request(key, HASH, LONG, LONG, true)).record().claimedKey();
    Instant before = storeNow().minusSeconds(1);

    assertThat(administration.recordCheck(claim, "GATEWAY_UNREACHABLE", "connection refused"))
        .isTrue();
    IdempotencyRecord checked = store.find(TENANT, OPERATION, key).orElseThrow();
    assertThat(checked.lastCheck()).isEqualTo("GATEWAY_UNREACHABLE");
    assertThat(checked.lastCheckDetail()).isEqualTo("connection refused");
    assertThat(checked.lastCheckedAt()).isAfter(before);

    ClaimedKey stale =
        new ClaimedKey(claim.tenant(), claim.operation(), claim.key(), claim.attempt() + 1);
    assertThat(administration.recordCheck(stale, "NEEDS_OPERATOR", null)).isFalse();
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().lastCheck())
        .isEqualTo("GATEWAY_UNREACHABLE");
    // A finished key has no check left to show, and takes none.
    assertThat(store.complete(claim, response("x"))).isTrue();
    assertThat(administration.recordCheck(claim, "NEEDS_OPERATOR", null)).isFalse();
    assertThat(store.find(TENANT, OPERATION, key).orElseThrow().lastCheck()).isNull();
  }

  @Test
  void listProcessing_filtersPagesAndCountsOnTheServer() throws Exception {
    List<String> mine = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      mine.add(claimProcessing(OPERATION));
    }
    store.claim(new ClaimRequest("bob", OPERATION, newKey(), HASH, LONG, LONG, false));
    claimProcessing("payments.charge");
    String done = newKey();
    store.complete(
        store.claim(request(done, HASH, LONG, LONG, false)).record().claimedKey(), response("d"));
    administration.recordCheck(
        store.find(TENANT, OPERATION, mine.get(3)).orElseThrow().claimedKey(),
        "NEEDS_OPERATOR",
        null);
    ProcessingQuery aliceOrders = new ProcessingQuery(TENANT, OPERATION, null, null);
    ProcessingPage first = administration.listProcessing(aliceOrders, 0, 2);
    ProcessingPage third = administration.listProcessing(aliceOrders, 4, 2);
    assertThat(first.total()).isEqualTo(5);
    assertThat(keys(first.rows())).containsExactly(mine.get(0), mine.get(1));
    assertThat(keys(third.rows())).containsExactly(mine.get(4));

    assertThat(
            administration
                .listProcessing(new ProcessingQuery(null, null, null, null), 0, 100)
                .total())
        .isEqualTo(7);
    assertThat(
            administration
                .listProcessing(new ProcessingQuery("bob", null, null, null), 0, 10)
                .total())
        .isEqualTo(1);
    assertThat(
            keys(
                administration
                    .listProcessing(new ProcessingQuery(null, null, "NEEDS_OPERATOR", null), 0, 10)
                    .rows()))
        .containsExactly(mine.get(3));
    assertThat(
            administration
                .listProcessing(
                    new ProcessingQuery(TENANT, OPERATION, ProcessingQuery.NEVER_CHECKED, null),
                    0,
                    10)
                .total())
        .isEqualTo(4);
    assertThat(
            administration
                .listProcessing(
                    new ProcessingQuery(null, null, null, Duration.ofSeconds(60)), 0, 10)
                .total())
        .isZero();
    ageAll(Duration.ofMinutes(2));
    assertThat(
            administration
                .listProcessing(
                    new ProcessingQuery(TENANT, OPERATION, null, Duration.ofSeconds(60)), 0, 10)
                .total())
        .isEqualTo(5);
  }

  /** The console sorts any column on the server and filters by claim time (docs/operations.md). */
  @Test
  void listProcessing_sortsByAnyColumnEitherWay_emptyValuesLast_andFiltersByClaimTime()
      throws Exception {
    List<String> mine = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      mine.add(claimProcessing(OPERATION));
    }
    administration.recordCheck(
        store.find(TENANT, OPERATION, mine.get(1)).orElseThrow().claimedKey(),
        "GATEWAY_UNREACHABLE",
        null);
    // The database's collation decides the order of keys; descending must be its exact reverse.
    List<String> ascending = keys(sorted(ProcessingQuery.Column.KEY, false));
    List<String> reversed = new ArrayList<>(keys(sorted(ProcessingQuery.Column.KEY, true)));
    java.util.Collections.reverse(reversed);
    assertThat(ascending).containsExactlyInAnyOrderElementsOf(mine).isEqualTo(reversed);
    // The checked key first either way: rows never checked come last whatever the direction.
    for (boolean descending : List.of(false, true)) {
      List<String> byCheck = keys(sorted(ProcessingQuery.Column.LAST_CHECKED_AT, descending));
      assertThat(byCheck.get(0)).as("descending " + descending).isEqualTo(mine.get(1));
      assertThat(keys(sorted(ProcessingQuery.Column.LAST_CHECK, descending)).get(0))
          .isEqualTo(mine.get(1));
    }

    java.time.Instant oldest =
        mine.stream()
            .map(k -> store.find(TENANT, OPERATION, k).orElseThrow().createdAt())
            .min(java.util.Comparator.naturalOrder())
            .orElseThrow();
    assertThat(
            administration
                .listProcessing(
                    new ProcessingQuery(
                        TENANT, OPERATION, null, null, oldest, oldest.plusSeconds(3600), null),
                    0,
                    10)
                .total())
        .isEqualTo(3);
    assertThat(
            administration
                .listProcessing(
                    new ProcessingQuery(
                        TENANT, OPERATION, null, null, oldest.plusSeconds(3600), null, null),
                    0,
                    10)
                .total())
        .isZero();
    assertThat(
            administration
                .listProcessing(
                    new ProcessingQuery(TENANT, OPERATION, null, null, null, oldest, null), 0, 10)
                .total())
        .isZero();
  }

  private List<IdempotencyRecord> sorted(ProcessingQuery.Column column, boolean descending)
      throws Exception {
    return administration
        .listProcessing(
            new ProcessingQuery(
                TENANT,
                OPERATION,
                null,
                null,
                null,
                null,
                new ProcessingQuery.Sort(column, descending)),
            0,
            10)
        .rows();
  }

  @Test
  void statistics_countsRowsByOperationStatusAndAge_andExpiredLeases() throws Exception {
    claimProcessing(OPERATION);
    claimProcessing(OPERATION);
    String done = newKey();
    store.complete(
        store.claim(request(done, HASH, LONG, LONG, false)).record().claimedKey(), response("d"));
    store.claim(
        new ClaimRequest(TENANT, "payments.charge", newKey(), HASH, SHORT_LEASE, LONG, true));
    pastShortLease();

    KeyStatistics stats = administration.statistics();
    assertThat(stats.processing(OPERATION)).isEqualTo(2);
    assertThat(stats.processing("payments.charge")).isEqualTo(1);
    assertThat(stats.processingByAge(OPERATION))
        .containsEntry(KeyStatistics.AgeBucket.UNDER_1_MIN, 2L)
        .containsEntry(KeyStatistics.AgeBucket.OLDER, 0L);
    assertThat(stats.expiredLeases()).containsExactly(Map.entry("payments.charge", 1L));
    assertThat(stats.oldestProcessing(OPERATION)).isBefore(stats.takenAt());
    assertThat(stats.groups())
        .anySatisfy(
            g -> {
              assertThat(g.operation()).isEqualTo(OPERATION);
              assertThat(g.status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);
              assertThat(g.rows()).isEqualTo(1);
            });

    // Two days later, the same rows are all in the oldest bucket.
    ageAll(Duration.ofDays(2));
    KeyStatistics dayLater = administration.statistics();
    assertThat(dayLater.processingByAge(OPERATION))
        .containsEntry(KeyStatistics.AgeBucket.OLDER, 2L)
        .containsEntry(KeyStatistics.AgeBucket.UNDER_1_MIN, 0L);
    assertThat(dayLater.expiredLeases()).containsEntry(OPERATION, 2L);
  }

  @Test
  void purgeRuns_recordedAndReadNewestFirst() {
    Instant start = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    String node = "node-" + newKey();
    administration.recordPurgeRun(new PurgeRun(start, node, "schedule", 12, 34));
    administration.recordPurgeRun(new PurgeRun(start.plusSeconds(1), node, "operator", 0, 5));

    List<PurgeRun> runs = administration.recentPurgeRuns(2);
    assertThat(runs)
        .containsExactly(
            new PurgeRun(start.plusSeconds(1), node, "operator", 0, 5),
            new PurgeRun(start, node, "schedule", 12, 34));
  }

  @Test
  void tableSizeBytes_whenReported_isPositive() {
    claimProcessingQuietly();
    assertThat(administration.tableSizeBytes())
        .satisfiesAnyOf(
            size -> assertThat(size).isEmpty(), size -> assertThat(size.getAsLong()).isPositive());
    assertThat(administration.tableSizeBytes().isPresent()).isEqualTo(reportsTableSize());
  }

  // ------------------------------------------------------------------ helpers

  protected static String newKey() {
    return UUID.randomUUID().toString();
  }

  /**
   * Whether the batched purge reaches the row of {@code key}: every row, unless the store keeps the
   * key table partitioned by expiry day, where the rows of a day partition wait for that day to be
   * dropped whole (docs/scaling.md, "Retention by partition").
   */
  protected boolean batchedPurgeReaches(String key) throws Exception {
    return true;
  }

  protected static ClaimRequest request(
      String key, String hash, Duration lease, Duration ttl, boolean takeover) {
    return new ClaimRequest(TENANT, OPERATION, key, hash, lease, ttl, takeover);
  }

  /** A response with a body that is not text, so that any re-encoding would show. */
  protected static StoredResponse response(String id) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Location", "/api/v1/orders/" + id);
    headers.put("Content-Type", "application/json");
    byte[] body =
        ("{\"id\":\"" + id + "\"}\u0000\u00ff")
            .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    return new StoredResponse(201, headers, body);
  }

  protected static StoredResponse problem() {
    return new StoredResponse(
        409,
        Map.of("Content-Type", "application/problem+json"),
        "{\"type\":\"payment-outcome-unknown\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /** A key completed with {@code response(key)}, claimed with a long TTL. */
  protected String completedKey() {
    String key = newKey();
    store.complete(
        store.claim(request(key, HASH, LONG, LONG, true)).record().claimedKey(), response(key));
    return key;
  }

  /** A new processing key of {@code operation}, then a little time, so that claims are ordered. */
  private String claimProcessing(String operation) throws Exception {
    String key = newKey();
    store.claim(new ClaimRequest(TENANT, operation, key, HASH, LONG, LONG, false));
    elapse(Duration.ofMillis(5));
    return key;
  }

  /** Records {@code check} on the processing key {@code key}, as its current owner. */
  private void check(String key, String check) {
    ClaimedKey claim = store.find(TENANT, OPERATION, key).orElseThrow().claimedKey();
    assertThat(administration.recordCheck(claim, check, null)).isTrue();
  }

  private void claimProcessingQuietly() {
    store.claim(new ClaimRequest(TENANT, OPERATION, newKey(), HASH, LONG, LONG, false));
  }

  protected static List<String> keys(List<IdempotencyRecord> records) {
    return records.stream().map(IdempotencyRecord::key).toList();
  }

  /** {@code record} as read at {@code readAt}: to compare two reads of an unchanged row. */
  private static IdempotencyRecord withReadAt(IdempotencyRecord record, Instant readAt) {
    return record.withReadAt(readAt);
  }

  /** Runs {@code threads} real threads that start the call together, and collects every result. */
  protected static <T> List<T> race(int threads, Callable<T> call) throws Exception {
    CyclicBarrier start = new CyclicBarrier(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        futures.add(
            pool.submit(
                () -> {
                  start.await(10, TimeUnit.SECONDS);
                  return call.call();
                }));
      }
      List<T> results = new ArrayList<>();
      for (Future<T> future : futures) {
        results.add(future.get(20, TimeUnit.SECONDS));
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  protected void pastShortLease() throws Exception {
    elapse(SHORT_LEASE.plusMillis(100));
  }

  protected void pastShortTtl() throws Exception {
    elapse(SHORT_TTL.plusMillis(150));
  }
}
