package com.banhang.idempotency.jdbc;

import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The store contract on SQL Server, migrated from sql/sqlserver: the claims are the procedures of
 * V10, called as the shop calls them (the in-transaction claim on a connection whose auto-commit is
 * off, which the Microsoft driver runs with IMPLICIT_TRANSACTIONS ON). Runs only where
 * SQLSERVER_JDBC_URL, SQLSERVER_USER and SQLSERVER_PASSWORD name a server and a login that may
 * create the schema; it empties {@code idempotency_record} before every test, so point it at a test
 * database. No SQL Server runs where this project is built: there it is reported skipped.
 */
@EnabledIfEnvironmentVariable(
    named = "SQLSERVER_JDBC_URL",
    matches = ".+",
    disabledReason =
        "no SQL Server on this machine: set SQLSERVER_JDBC_URL, SQLSERVER_USER and"
            + " SQLSERVER_PASSWORD to run the store contract against one")
class SqlServerIdempotencyStoreTest extends JdbcIdempotencyStoreContract {

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

  @Override
  Class<? extends JdbcIdempotencyStore> expectedStoreClass() {
    return SqlServerIdempotencyStore.class;
  }

  @Override
  protected boolean reportsTableSize() {
    return true;
  }
}
