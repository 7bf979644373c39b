package com.banhang.idempotency.spi;

import java.time.Duration;
import java.time.Instant;

/**
 * The store contract on the in-memory store, so that the gate's unit tests, which run over it, see
 * what the JDBC stores would show them. Time is the store's own clock, moved by the test, so the
 * cases that wait out a lease take no time here.
 *
 * <p>Not every case of the JDBC stores applies; those live in {@code JdbcIdempotencyStoreContract}
 * alone, because this store has no sessions, no locks and no clock of its own to differ from the
 * server's:
 *
 * <ul>
 *   <li>which store a data source gets, and a claim refused on a connection of an open transaction:
 *       there is no data source or connection;
 *   <li>a claim seen by another connection at once, and a claim in a transaction seen by nobody
 *       before its commit: its one transaction's writes are visible to every reader at once;
 *   <li>several transactions claiming one key, waiting for each other, timing out ({@code
 *       KeyBusyException}) or not waiting across an index gap, and a write bounded behind another
 *       session's lock: it has one transaction at a time, and nothing ever waits;
 *   <li>the server's clock skewed against the database's: it has one clock.
 * </ul>
 */
class InMemoryIdempotencyStoreTest extends IdempotencyStoreContract {

  private InMemoryIdempotencyStore memory;

  @Override
  protected StoreUnderTest emptyStore() {
    memory = new InMemoryIdempotencyStore();
    return new StoreUnderTest(memory, memory);
  }

  @Override
  protected StoreTransaction transaction() {
    memory.begin();
    return new StoreTransaction() {
      private boolean ended;

      @Override
      public IdempotencyStore store() {
        return memory;
      }

      @Override
      public void commit() {
        memory.commit();
        ended = true;
      }

      @Override
      public void rollback() {
        memory.rollback();
        ended = true;
      }

      @Override
      public void close() {
        if (!ended) {
          memory.rollback();
        }
      }
    };
  }

  @Override
  protected void elapse(Duration duration) {
    memory.advance(duration);
  }

  @Override
  protected Instant storeNow() {
    return memory.now();
  }

  @Override
  protected void ageAll(Duration by) {
    memory.ageAll(by);
  }

  /** What the databases keep as the resource reference: the stored response's Location. */
  @Override
  protected String resourceRef(String key) {
    return memory
        .find(TENANT, OPERATION, key)
        .map(r -> r.response() == null ? null : r.response().location())
        .orElseThrow();
  }

  @Override
  protected boolean reportsTableSize() {
    return false;
  }
}
