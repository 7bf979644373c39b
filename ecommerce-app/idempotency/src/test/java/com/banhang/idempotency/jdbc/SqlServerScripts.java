package com.banhang.idempotency.jdbc;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.internal.parser.ParsingContext;
import org.flywaydb.core.internal.resource.filesystem.FileSystemResource;
import org.flywaydb.core.internal.sqlscript.SqlStatement;
import org.flywaydb.core.internal.sqlscript.SqlStatementIterator;
import org.flywaydb.database.sqlserver.SQLServerParser;

/**
 * The SQL Server scripts as Flyway splits them at start-up, read offline by its own SQL Server
 * parser, for the tests that check them without a server.
 */
final class SqlServerScripts {

  private SqlServerScripts() {}

  /** The batches of one script, in order. */
  static List<String> parse(Path file) throws Exception {
    SQLServerParser parser = new SQLServerParser(Flyway.configure(), new ParsingContext());
    List<String> batches = new ArrayList<>();
    try (SqlStatementIterator it =
        parser.parse(
            new FileSystemResource(null, file.toString(), StandardCharsets.UTF_8, false))) {
      while (it.hasNext()) {
        SqlStatement statement = it.next();
        batches.add(statement.getSql());
      }
    }
    return batches;
  }

  static String withoutComments(String sql) {
    return sql.replaceAll("(?m)--.*$", "");
  }

  /** The first batch that contains {@code text} outside comments. */
  static int indexOf(List<String> batches, String text) {
    for (int i = 0; i < batches.size(); i++) {
      if (withoutComments(batches.get(i)).contains(text)) {
        return i;
      }
    }
    throw new AssertionError("no batch with " + text);
  }
}
