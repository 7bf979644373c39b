package com.banhang.events;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.UUID;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;

/**
 * The databases of this module's store tests, migrated from the scripts the shop ships: a fresh
 * in-memory H2 per test class, and one embedded PostgreSQL for the whole test JVM (each start costs
 * seconds; the tests empty the tables they use instead).
 */
public final class TestDatabases {

  private static EmbeddedPostgres postgres;

  private TestDatabases() {}

  public static void migrate(DataSource dataSource, String folder) {
    String sqlDir = System.getProperty("sql.dir", "../../sql");
    Flyway.configure()
        .dataSource(dataSource)
        .locations("filesystem:" + sqlDir + "/" + folder)
        .load()
        .migrate();
  }

  /** A fresh in-memory H2 named after {@code purpose}, migrated. */
  public static DataSource h2(String purpose) {
    JdbcDataSource dataSource = new JdbcDataSource();
    dataSource.setURL("jdbc:h2:mem:" + purpose + "-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    migrate(dataSource, "h2");
    return dataSource;
  }

  /** The test JVM's PostgreSQL, started and migrated on first use, stopped when the JVM exits. */
  public static synchronized DataSource postgres() {
    if (postgres == null) {
      try {
        postgres = EmbeddedPostgres.builder().start();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      migrate(postgres.getPostgresDatabase(), "postgresql");
      EmbeddedPostgres started = postgres;
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      started.close();
                    } catch (IOException e) {
                      // The JVM is ending; the embedded server's folder is temporary.
                    }
                  }));
    }
    return postgres.getPostgresDatabase();
  }
}
