package com.banhang.idempotency.internal;

import com.banhang.idempotency.ClaimedKey;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.IdempotencyStoreUnavailableException;
import com.banhang.idempotency.KeyStatistics;
import com.banhang.idempotency.ProcessingPage;
import com.banhang.idempotency.ProcessingQuery;
import com.banhang.idempotency.PurgeRun;
import com.banhang.idempotency.StoredResponse;
import com.banhang.idempotency.spi.ClaimRequest;
import com.banhang.idempotency.spi.ClaimResult;
import com.banhang.idempotency.spi.IdempotencyStore;
import com.banhang.idempotency.spi.IdempotencyStoreAdministration;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The store of a request's path, found on first use rather than at start-up, so that a database
 * that is down when the server starts makes requests fail closed (503) instead of the application
 * failing to deploy.
 *
 * <p>It also refuses a claim made inside a JTA transaction: a claim commits on its own, before the
 * operation runs, and one made on the transaction's connection would commit or roll back with it.
 * The stores' own check of the connection's auto-commit cannot see this on Open Liberty, whose
 * connection handle answers {@code getAutoCommit() == true} inside a global transaction (seen in
 * it-arquillian); docs/sqlserver.md, "The claim refuses every caller's transaction".
 */
final class LazyIdempotencyStore implements IdempotencyStore {

  private final Supplier<IdempotencyStore> delegate;
  private final BooleanSupplier insideTransaction;

  LazyIdempotencyStore(Supplier<IdempotencyStore> delegate, BooleanSupplier insideTransaction) {
    this.delegate = delegate;
    this.insideTransaction = insideTransaction;
  }

  @Override
  public ClaimResult claim(ClaimRequest request) {
    if (insideTransaction.getAsBoolean()) {
      throw new IdempotencyStoreUnavailableException(
          "a claim must run outside any transaction: it commits on its own, before the operation",
          null);
    }
    return delegate.get().claim(request);
  }

  /** The other way round: this claim is only safe inside the operation's transaction. */
  @Override
  public ClaimResult claimInTransaction(ClaimRequest request, Duration lockWait) {
    if (!insideTransaction.getAsBoolean()) {
      throw new IdempotencyStoreUnavailableException(
          "a claim in the operation's transaction needs that transaction: none is active", null);
    }
    return delegate.get().claimInTransaction(request, lockWait);
  }

  @Override
  public boolean completeInTransaction(IdempotencyRecord claim, StoredResponse response) {
    return delegate.get().completeInTransaction(claim, response);
  }

  @Override
  public boolean complete(ClaimedKey claim, StoredResponse response) {
    return delegate.get().complete(claim, response);
  }

  @Override
  public boolean markOutcomeUnknown(ClaimedKey claim, StoredResponse problemForRetries) {
    return delegate.get().markOutcomeUnknown(claim, problemForRetries);
  }

  @Override
  public boolean release(ClaimedKey claim) {
    return delegate.get().release(claim);
  }

  @Override
  public Optional<IdempotencyRecord> find(String tenant, String operation, String key) {
    return delegate.get().find(tenant, operation, key);
  }

  /**
   * The store's administration, found on first use like the store: a console or a retention run
   * against a database that is down fails closed too, instead of keeping the application from
   * deploying. No guard here: nothing of it claims a key.
   */
  static final class Administration implements IdempotencyStoreAdministration {

    private final Supplier<IdempotencyStoreAdministration> delegate;

    Administration(Supplier<IdempotencyStoreAdministration> delegate) {
      this.delegate = delegate;
    }

    @Override
    public List<IdempotencyRecord> findProcessing(
        String operation, Duration minAge, Set<String> skipChecks, int limit) {
      return delegate.get().findProcessing(operation, minAge, skipChecks, limit);
    }

    @Override
    public boolean recordCheck(ClaimedKey claim, String check, String detail) {
      return delegate.get().recordCheck(claim, check, detail);
    }

    @Override
    public ProcessingPage listProcessing(ProcessingQuery query, int offset, int limit) {
      return delegate.get().listProcessing(query, offset, limit);
    }

    @Override
    public KeyStatistics statistics() {
      return delegate.get().statistics();
    }

    @Override
    public OptionalLong tableSizeBytes() {
      return delegate.get().tableSizeBytes();
    }

    @Override
    public void recordPurgeRun(PurgeRun run) {
      delegate.get().recordPurgeRun(run);
    }

    @Override
    public List<PurgeRun> recentPurgeRuns(int limit) {
      return delegate.get().recentPurgeRuns(limit);
    }

    @Override
    public int purgeExpired(int batchSize) {
      return delegate.get().purgeExpired(batchSize);
    }
  }
}
