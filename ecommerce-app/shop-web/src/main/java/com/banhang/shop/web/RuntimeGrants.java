package com.banhang.shop.web;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Least privilege for the runtime database login on PostgreSQL (docs/operations.md, "The audit"):
 * after every migration, the migration login grants the login named by {@code
 * shop.database.runtime-user} the data rights on every table of the schema (so tables of later
 * migrations are covered too) and takes back UPDATE, DELETE and TRUNCATE of the audit and any write
 * of Flyway's history. Schema changes it never gets: the deployment revokes CREATE on the schema
 * from PUBLIC (docs/deployment.md). Unset (the default), nothing is granted: the deployment gives
 * the rights itself, as on SQL Server, whose grants are static (docs/deployment.md).
 *
 * <p>On H2 the migration login is the database's administrator, and the runtime login an H2 user it
 * creates (with the password {@code shop.h2.password} of the runtime data source) and grants, table
 * by table, SELECT, INSERT, UPDATE and DELETE, but only SELECT and INSERT on the audit and SELECT
 * on Flyway's history: H2 adds rights up, it cannot take one back from a schema-wide grant. A user
 * that is not an administrator cannot change the schema, and TRUNCATE needs DELETE.
 */
@ApplicationScoped
public class RuntimeGrants {

  private static final Logger LOG = Logger.getLogger(RuntimeGrants.class.getName());
  private static final Pattern ROLE = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  @Inject
  @ConfigProperty(name = "shop.database.runtime-user")
  Optional<String> runtimeUser;

  @Inject
  @ConfigProperty(name = "shop.h2.password")
  Optional<String> h2RuntimePassword;

  void apply(DataSource migrations, String vendor) throws SQLException {
    if (runtimeUser.isEmpty() || runtimeUser.get().isBlank()) {
      return;
    }
    if ("h2".equals(vendor)) {
      applyOnH2(migrations, runtimeUser.get(), h2RuntimePassword.orElse(""));
      return;
    }
    if (!"postgresql".equals(vendor)) {
      LOG.info(
          () ->
              "shop.database.runtime-user is applied on PostgreSQL only; on "
                  + vendor
                  + " the deployment grants the runtime login its rights (docs/deployment.md)");
      return;
    }
    try (Connection connection = migrations.getConnection();
        Statement statement = connection.createStatement()) {
      for (String sql : postgresql(runtimeUser.get())) {
        statement.execute(sql);
      }
    }
    LOG.info(
        () -> "runtime login " + runtimeUser.get() + " granted data rights; audit append-only");
  }

  private static void applyOnH2(DataSource migrations, String user, String password)
      throws SQLException {
    try (Connection connection = migrations.getConnection();
        Statement statement = connection.createStatement()) {
      List<String> tables = new java.util.ArrayList<>();
      try (var rows =
          statement.executeQuery(
              "SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES"
                  + " WHERE TABLE_SCHEMA = 'PUBLIC' AND TABLE_TYPE = 'BASE TABLE'")) {
        while (rows.next()) {
          tables.add(rows.getString(1));
        }
      }
      for (String sql : h2(user, password, tables)) {
        statement.execute(sql);
      }
    }
    LOG.info(() -> "runtime login " + user + " granted data rights; audit append-only");
  }

  /**
   * The H2 statements for user {@code user} over {@code tables} (their names as H2 stores them); a
   * name that is not a plain identifier is refused.
   */
  static List<String> h2(String user, String password, List<String> tables) {
    if (!ROLE.matcher(user.toLowerCase(java.util.Locale.ROOT)).matches()) {
      throw new IllegalArgumentException(
          "shop.database.runtime-user must be a plain identifier on H2");
    }
    String name = user.toUpperCase(java.util.Locale.ROOT);
    String quotedPassword = "'" + password.replace("'", "''") + "'";
    List<String> statements = new java.util.ArrayList<>();
    statements.add("CREATE USER IF NOT EXISTS \"" + name + "\" PASSWORD " + quotedPassword);
    statements.add("ALTER USER \"" + name + "\" SET PASSWORD " + quotedPassword);
    for (String table : tables) {
      if (!table.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        continue;
      }
      String rights =
          switch (table.toLowerCase(java.util.Locale.ROOT)) {
            // Append-only tables: the operator audit, and the payment timeline (V13).
            case "operator_audit", "payment_timeline" -> "SELECT, INSERT";
            case "flyway_schema_history" -> "SELECT";
            default -> "SELECT, INSERT, UPDATE, DELETE";
          };
      statements.add("GRANT " + rights + " ON \"PUBLIC\".\"" + table + "\" TO \"" + name + "\"");
    }
    return statements;
  }

  /** The statements for role {@code role}; a name that is not a plain identifier is refused. */
  static List<String> postgresql(String role) {
    if (!ROLE.matcher(role).matches()) {
      throw new IllegalArgumentException(
          "shop.database.runtime-user must be a plain lower-case PostgreSQL role name");
    }
    String to = " TO \"" + role + "\"";
    String from = " FROM \"" + role + "\"";
    return List.of(
        "GRANT USAGE ON SCHEMA public" + to,
        "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public" + to,
        "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public" + to,
        "GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public" + to,
        "REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON operator_audit" + from,
        "REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON payment_timeline" + from,
        "REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON flyway_schema_history" + from);
  }
}
