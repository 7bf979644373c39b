package com.banhang.bench.cost;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * One SQL statement for run.sh, over JDBC with the drivers the bench already has (H2, PostgreSQL),
 * so that no database client need be installed: it prints the first column of the first row of a
 * query, or the update count of anything else. run.sh creates the second server's PostgreSQL
 * database with it and, after the side-by-side run, counts each server's outbox rows (H2 only once
 * the server has closed its files). Run as {@code java -cp <classes>:<classpath>
 * com.banhang.bench.cost.OneStatement <jdbc-url> <user> <password> <sql>}; the URL must be on
 * loopback or a file.
 */
public final class OneStatement {

  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      System.err.println("usage: OneStatement <jdbc-url> <user> <password> <sql>");
      System.exit(64);
    }
    String url = args[0];
    if (!url.startsWith("jdbc:h2:file:")
        && !url.startsWith("jdbc:postgresql://127.0.0.1:")
        && !url.startsWith("jdbc:postgresql://localhost:")) {
      System.err.println("refusing " + url + ": a file or loopback only");
      System.exit(64);
    }
    try (Connection connection = DriverManager.getConnection(url, args[1], args[2]);
        Statement statement = connection.createStatement()) {
      if (statement.execute(args[3])) {
        try (ResultSet rows = statement.getResultSet()) {
          System.out.println(rows.next() ? rows.getString(1) : "");
        }
      } else {
        System.out.println(statement.getUpdateCount());
      }
    }
  }
}
