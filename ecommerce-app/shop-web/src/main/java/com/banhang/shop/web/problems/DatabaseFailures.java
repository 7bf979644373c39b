package com.banhang.shop.web.problems;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;

/**
 * Tells a database that went away or gave up for a moment (a retry may succeed) from a failure of
 * the application itself. The drivers disagree on how they say it: H2 throws the JDBC subclasses,
 * PostgreSQL's and SQL Server's drivers throw plain {@link SQLException}s and say it only in the
 * SQLSTATE. Both are read here; {@link ProblemExceptionMapper} applies this to every cause.
 */
final class DatabaseFailures {

  /**
   * SQLSTATEs of a passing failure that are not in class 08 (connection exception): PostgreSQL's
   * shutdown and start-up refusals (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot
   * connect now), serialization failure and deadlock (40001, 40P01), the timeouts HYT00/HYT01, and
   * a write refused by a read-only database (25006): during a failover, a standby not yet promoted
   * or an old primary fenced by the failover manager refuses writes until the driver reaches the
   * new primary (docs/deployment.md, "A PostgreSQL standby and failover"). Nothing was written, so
   * a retry with the same key is safe. A shop pointed at a standby by mistake answers 503 until it
   * is fixed, which is what it is: a database that takes no writes.
   */
  private static final Set<String> PASSING_STATES =
      Set.of("57P01", "57P02", "57P03", "40001", "40P01", "HYT00", "HYT01", "25006");

  private DatabaseFailures() {}

  /**
   * Whether {@code failure} itself (not its causes: the caller walks them) says the database failed
   * for a while.
   */
  static boolean isPassing(Throwable failure) {
    return failure instanceof SQLTransientException
        || failure instanceof SQLRecoverableException
        || failure instanceof SQLNonTransientConnectionException
        || failure instanceof SQLException sql && isPassingState(sql.getSQLState());
  }

  private static boolean isPassingState(String state) {
    return state != null && (state.startsWith("08") || PASSING_STATES.contains(state));
  }
}
