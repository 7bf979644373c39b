package com.banhang.itarq.app;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * Creates the schema when the application starts: the library's own H2 scripts
 * (sql/h2/V1__idempotency_record.sql and V4__operator_console.sql, which adds the columns and table
 * the library reads; copied into the deployment by the build) and the business table. Older tables
 * are dropped first, so every deployment starts from empty tables.
 */
@ApplicationScoped
public class SchemaInitializer {

  static final List<String> SCRIPTS =
      List.of("schema/V1__idempotency_record.sql", "schema/V4__operator_console.sql");

  @Resource(lookup = "jdbc/idem")
  DataSource dataSource;

  void onStart(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
    List<String> statements = new ArrayList<>();
    statements.add("DROP TABLE IF EXISTS idempotency_record");
    statements.add("DROP TABLE IF EXISTS idempotency_purge_run");
    statements.add("DROP TABLE IF EXISTS operator_audit");
    statements.add("DROP TABLE IF EXISTS widget");
    for (String script : SCRIPTS) {
      statements.addAll(statements(script(script)));
    }
    statements.add("CREATE TABLE widget (id VARCHAR(36) PRIMARY KEY, name VARCHAR(255) NOT NULL)");
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create the test schema", e);
    }
  }

  private static String script(String name) {
    try (InputStream in = SchemaInitializer.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(name + " is not in the deployment");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + name, e);
    }
  }

  /** The script's statements: comment lines dropped, split at semicolons. */
  static List<String> statements(String script) {
    String withoutComments =
        script
            .lines()
            .filter(line -> !line.strip().startsWith("--"))
            .collect(Collectors.joining("\n"));
    List<String> statements = new ArrayList<>();
    for (String part : withoutComments.split(";")) {
      if (!part.isBlank()) {
        statements.add(part.strip());
      }
    }
    return statements;
  }
}
