package com.banhang.shop.payments.infrastructure.persistence.jdbc;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.internal.parser.ParsingContext;
import org.flywaydb.core.internal.resource.filesystem.FileSystemResource;
import org.flywaydb.core.internal.sqlscript.SqlStatement;
import org.flywaydb.core.internal.sqlscript.SqlStatementIterator;
import org.flywaydb.database.sqlserver.SQLServerParser;

/**
 * The payments context's migration scripts as the script tests read them: one database's file as
 * text, and SQL Server's split into batches by Flyway's own parser (no SQL Server runs here).
 */
final class MigrationScripts {

  private static final Path SQL = Path.of(System.getProperty("sql.dir", "../../sql"));

  private MigrationScripts() {}

  static String text(String database, String file) throws Exception {
    return Files.readString(SQL.resolve(database).resolve(file));
  }

  static List<String> sqlServerBatches(String file) throws Exception {
    SQLServerParser parser = new SQLServerParser(Flyway.configure(), new ParsingContext());
    List<String> batches = new ArrayList<>();
    Path path = SQL.resolve("sqlserver").resolve(file);
    try (SqlStatementIterator it =
        parser.parse(
            new FileSystemResource(null, path.toString(), StandardCharsets.UTF_8, false))) {
      while (it.hasNext()) {
        SqlStatement statement = it.next();
        batches.add(statement.getSql());
      }
    }
    return batches;
  }

  static String withoutComments(String sql) {
    return Pattern.compile("(?m)--.*$").matcher(sql).replaceAll("");
  }
}
