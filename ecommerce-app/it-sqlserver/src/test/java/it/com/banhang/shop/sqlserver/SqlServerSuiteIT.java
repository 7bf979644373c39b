package it.com.banhang.shop.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * Says whether the SQL Server run happened. With SQLSERVER_JDBC_URL set, the build runs shop-web's
 * whole HTTP suite against SQL Server and this class checks the claim procedure is the one used;
 * without it, this test is reported skipped with the variable's name, and nothing else runs.
 */
class SqlServerSuiteIT {

  @Test
  @EnabledIfEnvironmentVariable(
      named = "SQLSERVER_JDBC_URL",
      matches = ".+",
      disabledReason =
          "no SQL Server on this machine: set SQLSERVER_JDBC_URL, SQLSERVER_USER and"
              + " SQLSERVER_PASSWORD to run the integration suite against one")
  void claimProcedure_isInstalledByTheShopsMigrations() throws Exception {
    try (Connection connection =
            DriverManager.getConnection(
                System.getenv("SQLSERVER_JDBC_URL"),
                System.getenv("SQLSERVER_USER"),
                System.getenv("SQLSERVER_PASSWORD"));
        ResultSet rs =
            connection
                .createStatement()
                .executeQuery("SELECT OBJECT_ID('dbo.usp_idempotency_claim', 'P')")) {
      rs.next();
      assertThat(rs.getObject(1)).isNotNull();
    }
  }
}
