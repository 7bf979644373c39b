package com.banhang.gateway.sandbox.charge;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Work that belongs to a new charge: {@link #inTransaction} writes rows in the charge's own
 * transaction, so they exist exactly when the charge does; {@link #afterCommit} runs on the charge
 * call's thread once the charge is committed, before the call answers. The webhook events are the
 * implementation; the charge package only knows this interface, so it never depends on them.
 */
public interface ChargeCommitHook {

  /** Nothing to write, nothing to do. */
  ChargeCommitHook NONE =
      new ChargeCommitHook() {
        @Override
        public void inTransaction(Connection connection, Charge charge) {}

        @Override
        public void afterCommit(Charge charge) {}
      };

  /** Writes on the charge's connection, inside its transaction; a failure rolls the charge back. */
  void inTransaction(Connection connection, Charge charge) throws SQLException;

  /**
   * Runs after the commit on the charge call's thread. Must not throw: the charge is committed
   * whatever happens here.
   */
  void afterCommit(Charge charge);
}
