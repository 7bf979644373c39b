package com.banhang.shop.admin.application;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.internal.parser.ParsingContext;
import org.flywaydb.core.internal.resource.filesystem.FileSystemResource;
import org.flywaydb.core.internal.sqlscript.SqlStatementIterator;
import org.flywaydb.database.sqlserver.SQLServerParser;
import org.junit.jupiter.api.Test;

/**
 * V17 as the three databases get it, and SQL Server's statements. H2 and PostgreSQL run both in
 * H2ConsoleMinutesTest and PostgresConsoleMinutesTest; SQL Server's script is read here offline,
 * split by Flyway's own SQL Server parser, since no SQL Server runs where this project is built.
 * This proves what the script and the statements say, not that SQL Server accepts them.
 */
class ConsoleMinuteScriptsTest {

  private static final Path SQL = Path.of(System.getProperty("sql.dir", "../../sql"));
  private static final String V17 = "V17__console_minutes.sql";

  @Test
  void everyDatabase_getsTheTable_keyedByMinuteSignalAndSeries() throws Exception {
    for (String vendor : List.of("h2", "postgresql", "sqlserver")) {
      String script = withoutComments(Files.readString(SQL.resolve(vendor).resolve(V17)));
      assertThat(script)
          .as(vendor)
          .containsPattern("(?i)CREATE TABLE (dbo\\.)?console_minute \\(")
          .containsPattern("(?i)reading\\s+bigint\\s+NOT NULL")
          .containsPattern(
              "(?i)CONSTRAINT pk_console_minute PRIMARY KEY \\(minute_at, signal_name, series\\)");
    }
  }

  @Test
  void sqlServer_scriptIsOneBatch_withATimeZonedMinute() throws Exception {
    SQLServerParser parser = new SQLServerParser(Flyway.configure(), new ParsingContext());
    List<String> batches = new ArrayList<>();
    Path file = SQL.resolve("sqlserver").resolve(V17);
    try (SqlStatementIterator it =
        parser.parse(
            new FileSystemResource(null, file.toString(), StandardCharsets.UTF_8, false))) {
      while (it.hasNext()) {
        batches.add(it.next().getSql());
      }
    }
    assertThat(batches).hasSize(1);
    assertThat(withoutComments(batches.get(0)))
        .containsPattern("(?i)minute_at\\s+datetimeoffset\\(3\\)\\s+NOT NULL");
  }

  @Test
  void sqlServer_upsertsHoldTheKeyRange_andEndWithASemicolon_theCleanupTakesTheTop() {
    ConsoleMinuteSql sql = ConsoleMinuteSql.forProduct("Microsoft SQL Server");
    for (String upsert : List.of(sql.add, sql.max)) {
      assertThat(upsert)
          .startsWith("MERGE INTO dbo.console_minute WITH (HOLDLOCK) AS t USING (SELECT")
          .contains("CAST(? AS datetimeoffset(3)) AS minute_at")
          .contains("WHEN MATCHED THEN UPDATE SET reading = ")
          .contains("WHEN NOT MATCHED THEN INSERT (minute_at, signal_name, series, reading)")
          .endsWith(";");
    }
    assertThat(sql.add).contains("SET reading = t.reading + s.reading");
    // No GREATEST before SQL Server 2022.
    assertThat(sql.max)
        .contains("CASE WHEN s.reading > t.reading THEN s.reading ELSE t.reading END")
        .doesNotContain("GREATEST");
    assertThat(sql.deleteBatch)
        .isEqualTo("DELETE TOP (?) FROM dbo.console_minute WHERE minute_at < ?");
    assertThat(sql.batchSizeFirst()).isTrue();
  }

  @Test
  void theDatabaseIsToldByItsProductName() {
    assertThat(ConsoleMinuteSql.forProduct("H2")).isEqualTo(ConsoleMinuteSql.H2);
    assertThat(ConsoleMinuteSql.forProduct("PostgreSQL")).isEqualTo(ConsoleMinuteSql.POSTGRESQL);
    assertThat(ConsoleMinuteSql.POSTGRESQL.add)
        .contains("ON CONFLICT (minute_at, signal_name, series) DO UPDATE")
        .contains("console_minute.reading + EXCLUDED.reading");
  }

  private static String withoutComments(String sql) {
    return Pattern.compile("(?m)--.*$").matcher(sql).replaceAll("");
  }
}
