package com.banhang.itarq.app;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Faults that an in-container test arms for the next widget creation, after its row was written: an
 * exception, or a transaction marked rollback-only while the method returns normally.
 */
@ApplicationScoped
public class FailureSwitch {

  private final AtomicBoolean failNextAfterWrite = new AtomicBoolean();
  private final AtomicBoolean rollbackOnlyNext = new AtomicBoolean();

  public void failNextAfterWrite() {
    failNextAfterWrite.set(true);
  }

  boolean consumeFailAfterWrite() {
    return failNextAfterWrite.getAndSet(false);
  }

  /** The next widget creation marks its transaction rollback-only and returns normally. */
  public void rollbackOnlyNext() {
    rollbackOnlyNext.set(true);
  }

  boolean consumeRollbackOnly() {
    return rollbackOnlyNext.getAndSet(false);
  }
}
