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
 * Creates the schema when the application starts: the library's own H2 script
 * (sql/h2/V1__idempotency_record.sql, copied into the deployment by the build) and the business
 * table. Older tables are dropped first, so every deployment starts from empty tables.
 */
@ApplicationScoped
public class SchemaInitializer {

  static final String SCRIPT = "schema/V1__idempotency_record.sql";

  @Resource(lookup = "jdbc/idem")
  DataSource dataSource;

  void onStart(@Observes @Initialized(ApplicationScoped.class) Object ignored) {
    List<String> statements = new ArrayList<>();
    statements.add("DROP TABLE IF EXISTS idempotency_record");
    statements.add("DROP TABLE IF EXISTS widget");
    statements.addAll(statements(script()));
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

  private static String script() {
    try (InputStream in = SchemaInitializer.class.getClassLoader().getResourceAsStream(SCRIPT)) {
      if (in == null) {
        throw new IllegalStateException(SCRIPT + " is not in the deployment");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + SCRIPT, e);
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
