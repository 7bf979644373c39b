package it.com.banhang.shop.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * Runs last (junit-platform.properties): no deadlock on the instance during the whole run, the
 * concurrency suites included. The counter is the instance's, so run on a SQL Server that nothing
 * else uses meanwhile (docs/sqlserver.md).
 */
@Order(Integer.MAX_VALUE)
@EnabledIfEnvironmentVariable(
    named = "SQLSERVER_JDBC_URL",
    matches = ".+",
    disabledReason = SqlServer.SKIPPED)
class SqlServerSuiteEndIT {

  /**
   * PaymentConcurrencyIT alone sends 300 new keys, each claimed at least once; fewer executions
   * since the baseline mean that the suite did not run between the two classes.
   */
  private static final long SUITE_CLAIMS_AT_LEAST = 300;

  @Test
  void wholeRun_noDeadlockOnTheInstance() throws Exception {
    SqlServerSuiteIT.Baseline baseline = SqlServerSuiteIT.baseline;
    assertThat(baseline)
        .as("SqlServerSuiteIT took no baseline before the suite (class order not applied?)")
        .isNotNull();
    long claims = SqlServer.claimProcedureExecutions() - baseline.claimExecutions();
    assertThat(claims)
        .as("claim procedure executions since the baseline: the suite ran in between")
        .isGreaterThanOrEqualTo(SUITE_CLAIMS_AT_LEAST);
    long deadlocks = SqlServer.deadlocks() - baseline.deadlocks();
    System.out.printf(
        "SQL Server whole run: %d claim procedure executions, %d deadlocks%n", claims, deadlocks);
    assertThat(deadlocks).as("deadlocks on the instance during the run (error 1205)").isZero();
  }
}
