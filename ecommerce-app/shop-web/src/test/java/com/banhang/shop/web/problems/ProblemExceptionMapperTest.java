package com.banhang.shop.web.problems;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.banhang.idempotency.ProblemDetails;
import com.banhang.shop.orders.domain.model.OrderNotFoundException;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.HeuristicMixedException;
import jakarta.transaction.RollbackException;
import jakarta.transaction.TransactionalException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.stream.Stream;
import javax.transaction.xa.XAException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which failures the shop answers 503 database-unavailable (a retry with the same key is safe and
 * may succeed) and which stay 500 internal-error. The exceptions are wrapped the way EclipseLink,
 * the Jakarta Transactions interceptor and the connection pool wrap them.
 */
class ProblemExceptionMapperTest {

  static Stream<Arguments> failures() {
    return Stream.of(
        Arguments.of(
            "PostgreSQL shut down under a query, through EclipseLink",
            persistence(new SQLException("terminating connection", "57P01")),
            503,
            "database-unavailable"),
        Arguments.of(
            "PostgreSQL refusing connections while it starts",
            persistence(new SQLException("the database system is starting up", "57P03")),
            503,
            "database-unavailable"),
        Arguments.of(
            "a write on a PostgreSQL standby not yet promoted (seen in DatabaseFailoverStormIT"
                + " with targetServerType=any)",
            persistence(
                new SQLException("cannot execute INSERT in a read-only transaction", "25006")),
            503,
            "database-unavailable"),
        Arguments.of(
            "PostgreSQL stopped during an XA one-phase commit (seen in DatabaseOutageStormIT)",
            new TransactionalException(
                "commit failed",
                new HeuristicMixedException("XAER_RMFAIL")
                    .initCause(
                        new XAException("Error during one-phase commit")
                            .initCause(new SQLException("terminating connection", "57P01")))),
            503,
            "database-unavailable"),
        Arguments.of(
            "a connection lost at commit, through the transaction interceptor",
            new TransactionalException(
                "commit failed",
                new RollbackException("rolled back")
                    .initCause(new SQLException("An I/O error occurred", "08006"))),
            503,
            "database-unavailable"),
        Arguments.of(
            "SQL Server's driver: connection reset",
            persistence(new SQLException("Connection reset", "08S01")),
            503,
            "database-unavailable"),
        Arguments.of(
            "the connection pool: no connection in time",
            persistence(new SQLTransientConnectionException("J2CA0045E")),
            503,
            "database-unavailable"),
        Arguments.of(
            "H2: the database is closed",
            persistence(new SQLNonTransientConnectionException("Database is already closed")),
            503,
            "database-unavailable"),
        Arguments.of(
            "a query timeout",
            persistence(new SQLTimeoutException("canceling statement", "57014")),
            503,
            "database-unavailable"),
        Arguments.of(
            "a unique constraint: the application's bug, not a passing failure",
            persistence(new SQLException("duplicate key value", "23505")),
            500,
            "internal-error"),
        Arguments.of(
            "H2's constraint subclass",
            persistence(new SQLIntegrityConstraintViolationException("dup", "23505")),
            500,
            "internal-error"),
        Arguments.of(
            "a SQL error without a SQLSTATE",
            persistence(new SQLException("?")),
            500,
            "internal-error"),
        Arguments.of(
            "a programming error", new IllegalStateException("bug"), 500, "internal-error"),
        Arguments.of(
            "a business rejection keeps its meaning",
            new OrderNotFoundException("o-1"),
            404,
            "order-not-found"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("failures")
  void answers(String what, Throwable thrown, int status, String slug) {
    ProblemDetails problem = ProblemExceptionMapper.problemFor(thrown);

    assertThat(problem.status()).as(what).isEqualTo(status);
    assertThat(problem.slug()).as(what).isEqualTo(slug);
    assertThat(problem.detail()).as("never a stack trace").doesNotContain("\tat ");
  }

  @Test
  void aCycleOfCausesEnds() {
    IllegalStateException first = new IllegalStateException("first");
    IllegalStateException second = new IllegalStateException("second", first);
    first.initCause(second);

    // A hang guard, not a timing: without the bound the cause walk never ends.
    ProblemDetails problem =
        assertTimeoutPreemptively(
            Duration.ofSeconds(30), () -> ProblemExceptionMapper.problemFor(first));

    assertThat(problem.status()).isEqualTo(500);
  }

  private static PersistenceException persistence(SQLException sql) {
    return new PersistenceException(
        "Exception [EclipseLink-4002]", new RuntimeException("Internal Exception", sql));
  }
}
