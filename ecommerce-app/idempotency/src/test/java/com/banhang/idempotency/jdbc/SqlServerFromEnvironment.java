package com.banhang.idempotency.jdbc;

import com.microsoft.sqlserver.jdbc.SQLServerDataSource;
import javax.sql.DataSource;

/**
 * The SQL Server that the tests run against when one is given: SQLSERVER_JDBC_URL, SQLSERVER_USER
 * and SQLSERVER_PASSWORD, read by every test class that needs one (they are skipped without it).
 */
public final class SqlServerFromEnvironment {

  private SqlServerFromEnvironment() {}

  public static DataSource dataSource() {
    SQLServerDataSource dataSource = new SQLServerDataSource();
    dataSource.setURL(System.getenv("SQLSERVER_JDBC_URL"));
    dataSource.setUser(System.getenv("SQLSERVER_USER"));
    dataSource.setPassword(System.getenv("SQLSERVER_PASSWORD"));
    return dataSource;
  }
}
