package com.banhang.shop.web;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * Brings the database schema up to date when the application starts, from the migration set of the
 * database it finds ({@code sql/<vendor>} in the repository, {@code db/migration/<vendor>} in the
 * WAR). Each folder holds an empty {@code flyway.location} file: on Liberty, as on WebSphere,
 * Flyway finds a classpath folder only through a file inside it.
 */
@ApplicationScoped
public class DatabaseMigrations {

  private static final Logger LOG = Logger.getLogger(DatabaseMigrations.class.getName());

  /**
   * The migration login's data source (datasources/*.xml): the schema owner, which may change the
   * schema. The runtime login ({@code jdbc/shop}) need not: docs/deployment.md gives it only what
   * the shop's statements need, and on PostgreSQL {@link RuntimeGrants} keeps that so after every
   * migration. Both are the same login unless the deployment sets a migration login.
   */
  @Resource(lookup = "jdbc/shopMigrations")
  DataSource dataSource;

  @Inject RuntimeGrants runtimeGrants;

  void migrateOnStart(@Observes @Initialized(ApplicationScoped.class) Object start)
      throws SQLException {
    String vendor = vendor(dataSource);
    String location = location(vendor);
    var result =
        Flyway.configure(DatabaseMigrations.class.getClassLoader())
            .dataSource(dataSource)
            .locations(location)
            .load()
            .migrate();
    runtimeGrants.apply(dataSource, vendor);
    LOG.info(
        () ->
            "database schema at version "
                + result.targetSchemaVersion
                + " ("
                + result.migrationsExecuted
                + " migrations run now)");
  }

  /** The migration folder in the WAR for a database ({@code sql/<vendor>} in the repository). */
  public static String location(String vendor) {
    return "classpath:db/migration/" + vendor;
  }

  /** The migration set of the database behind {@code dataSource}: its product name decides. */
  public static String vendor(DataSource dataSource) throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      String product = connection.getMetaData().getDatabaseProductName();
      if (product.startsWith("Microsoft SQL Server")) {
        return "sqlserver";
      }
      if (product.startsWith("PostgreSQL")) {
        return "postgresql";
      }
      if (product.startsWith("H2")) {
        return "h2";
      }
      throw new IllegalStateException("no migrations for database " + product);
    }
  }
}
