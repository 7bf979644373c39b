package com.banhang.idempotency.internal;

import com.banhang.idempotency.jdbc.SqlServerFromEnvironment;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The shared new-key limit on SQL Server, migrated from sql/sqlserver: this library's statements
 * over Bucket4j's algorithm, the row held WITH (UPDLOCK, HOLDLOCK), and the full buckets' purge
 * passing over held rows (READPAST). Runs only where SQLSERVER_JDBC_URL, SQLSERVER_USER and
 * SQLSERVER_PASSWORD name a server and a login that may create the schema; it empties {@code
 * idempotency_new_key_bucket} before every test, so point it at a test database. No SQL Server runs
 * where this project is built: there it is reported skipped.
 */
@EnabledIfEnvironmentVariable(
    named = "SQLSERVER_JDBC_URL",
    matches = ".+",
    disabledReason =
        "no SQL Server on this machine: set SQLSERVER_JDBC_URL, SQLSERVER_USER and"
            + " SQLSERVER_PASSWORD to run the shared new-key limit's contract against one")
class SqlServerSharedNewKeyLimitsTest extends SharedNewKeyLimitsContract {

  private static DataSource dataSource;

  @BeforeAll
  static void migrateDatabase() {
    dataSource = SqlServerFromEnvironment.dataSource();
    migrate(dataSource, "sqlserver");
  }

  @Override
  DataSource dataSource() {
    return dataSource;
  }
}
