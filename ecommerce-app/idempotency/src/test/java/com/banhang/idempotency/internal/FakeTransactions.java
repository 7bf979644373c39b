package com.banhang.idempotency.internal;

import com.banhang.idempotency.spi.InMemoryIdempotencyStore;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * A JTA transaction on one thread, just enough for the gate: begun, then committed or rolled back,
 * telling the synchronizations registered meanwhile and the in-memory store's journal. Public, and
 * published in the library's test-jar, for tests elsewhere that drive the library's transaction
 * handling without a server.
 */
public final class FakeTransactions implements TransactionSynchronizationRegistry {

  private final InMemoryIdempotencyStore store;
  private final List<Synchronization> synchronizations = new ArrayList<>();
  private Object key;

  public FakeTransactions(InMemoryIdempotencyStore store) {
    this.store = store;
  }

  public void begin() {
    key = new Object();
    store.begin();
  }

  public void commit() {
    store.commit();
    end(Status.STATUS_COMMITTED);
  }

  public void rollback() {
    store.rollback();
    end(Status.STATUS_ROLLEDBACK);
  }

  private void end(int status) {
    key = null;
    List<Synchronization> told = new ArrayList<>(synchronizations);
    synchronizations.clear();
    told.forEach(s -> s.afterCompletion(status));
  }

  @Override
  public Object getTransactionKey() {
    return key;
  }

  @Override
  public void registerInterposedSynchronization(Synchronization sync) {
    synchronizations.add(sync);
  }

  @Override
  public int getTransactionStatus() {
    return key == null ? Status.STATUS_NO_TRANSACTION : Status.STATUS_ACTIVE;
  }

  @Override
  public void putResource(Object k, Object value) {
    throw new UnsupportedOperationException();
  }

  @Override
  public Object getResource(Object k) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void setRollbackOnly() {
    throw new UnsupportedOperationException();
  }

  @Override
  public boolean getRollbackOnly() {
    return false;
  }
}
