package com.banhang.events.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.internal.parser.ParsingContext;
import org.flywaydb.core.internal.resource.filesystem.FileSystemResource;
import org.flywaydb.core.internal.sqlscript.SqlStatementIterator;
import org.flywaydb.database.sqlserver.SQLServerParser;
import org.junit.jupiter.api.Test;

/**
 * The V19 scripts: the three databases get the same tables and columns, and the SQL Server one,
 * which no server here runs, is read by Flyway's own SQL Server parser and checked for what the
 * store relies on (binary-collated nvarchar where a Java string is compared, datetimeoffset(3)
 * times, filtered indexes created with the session options they need).
 */
class WebhookScriptsTest {

  private static final Path SQL = Path.of(System.getProperty("sql.dir", "../../sql"));
  private static final String SCRIPT = "V19__webhook_deliveries.sql";

  /** Free text, never sought: no collation needed. */
  private static final Set<String> TEXT_COLUMNS =
      Set.of("body", "last_error", "error", "disabled_reason");

  /** table.column to its type, from each CREATE TABLE of a script. */
  private static Map<String, String> columns(String folder) throws Exception {
    String script = withoutComments(Files.readString(SQL.resolve(folder).resolve(SCRIPT)));
    Map<String, String> columns = new LinkedHashMap<>();
    Matcher table =
        Pattern.compile("(?is)CREATE\\s+TABLE\\s+(?:dbo\\.)?(\\w+)\\s*\\((.*?)\\n\\);")
            .matcher(script);
    while (table.find()) {
      for (String line : table.group(2).split("\n")) {
        Matcher column = Pattern.compile("^\\s+(\\w+)\\s+(.+?),?\\s*$").matcher(line);
        if (column.matches()
            && !column.group(1).equalsIgnoreCase("CONSTRAINT")
            && !column.group(1).equalsIgnoreCase("REFERENCES")
            && !column.group(1).equalsIgnoreCase("CHECK")) {
          columns.put(table.group(1) + "." + column.group(1), column.group(2));
        }
      }
    }
    return columns;
  }

  private static String withoutComments(String sql) {
    return sql.replaceAll("(?m)--.*$", "");
  }

  private static List<String> sqlServerBatches() throws Exception {
    SQLServerParser parser = new SQLServerParser(Flyway.configure(), new ParsingContext());
    List<String> batches = new ArrayList<>();
    Path file = SQL.resolve("sqlserver").resolve(SCRIPT);
    try (SqlStatementIterator statements =
        parser.parse(
            new FileSystemResource(null, file.toString(), StandardCharsets.UTF_8, false))) {
      while (statements.hasNext()) {
        batches.add(statements.next().getSql());
      }
    }
    return batches;
  }

  @Test
  void theThreeDatabasesGetTheSameTablesAndColumns() throws Exception {
    Set<String> h2 = columns("h2").keySet();

    assertThat(h2)
        .contains(
            "webhook_delivery.event_id",
            "webhook_delivery.endpoint",
            "webhook_delivery.body",
            "webhook_delivery_attempt.duration_ms",
            "webhook_endpoint_state.disabled_reason")
        .hasSize(14 + 7 + 3);
    assertThat(columns("postgresql").keySet()).containsExactlyElementsOf(h2);
    assertThat(columns("sqlserver").keySet()).containsExactlyElementsOf(h2);
  }

  @Test
  void sqlServer_everySoughtStringIsABinaryCollatedNvarchar_andEveryTimeADatetimeoffset3()
      throws Exception {
    Map<String, String> columns = columns("sqlserver");

    columns.forEach(
        (column, type) -> {
          String name = column.substring(column.indexOf('.') + 1);
          if (type.startsWith("nvarchar") && !TEXT_COLUMNS.contains(name)) {
            assertThat(type).as(column).contains("COLLATE Latin1_General_100_BIN2");
          }
          if (name.endsWith("_at") || name.endsWith("_until")) {
            assertThat(type).as(column).startsWith("datetimeoffset(3)");
          }
          assertThat(type).as(column).doesNotStartWith("varchar");
        });
  }

  @Test
  void sqlServer_parsesIntoBatches_andSetsTheFilteredIndexesOptionsFirst() throws Exception {
    List<String> batches = sqlServerBatches();

    assertThat(batches).hasSizeGreaterThanOrEqualTo(5);
    int options = -1;
    int filtered = -1;
    for (int i = 0; i < batches.size(); i++) {
      String batch = withoutComments(batches.get(i));
      if (batch.contains("SET ANSI_NULLS ON") && options < 0) {
        options = i;
      }
      if (batch.matches("(?is).*CREATE\\s+INDEX.*WHERE\\s+status\\s*=.*") && filtered < 0) {
        filtered = i;
      }
    }
    assertThat(options).isZero();
    assertThat(withoutComments(batches.get(0))).contains("SET QUOTED_IDENTIFIER ON");
    assertThat(filtered).isGreaterThan(options);
    assertThat(Files.readString(SQL.resolve("sqlserver").resolve(SCRIPT)))
        .contains("Nothing here has run on a SQL Server.");
  }
}
