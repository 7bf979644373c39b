package com.banhang.idempotency.jdbc;

import static com.banhang.idempotency.jdbc.SqlServerScripts.indexOf;
import static com.banhang.idempotency.jdbc.SqlServerScripts.parse;
import static com.banhang.idempotency.jdbc.SqlServerScripts.withoutComments;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The SQL Server scripts as they concern payments, override proposals and the audit, read offline
 * with Flyway's SQL Server parser (no SQL Server runs where this project is built;
 * docs/sqlserver.md, "Payments columns, the audit trigger and the LIKE escape"). The column types
 * are followed through every script in version order, as a database that applied them all would
 * have them. This proves what the scripts say, not that SQL Server accepts them.
 */
class SqlServerPaymentsScriptsTest {

  private static final Path SQL = Path.of(System.getProperty("sql.dir", "../../sql"));
  private static final String BIN2 = "Latin1_General_100_BIN2";

  /**
   * String columns that the shop compares with a bound Java string in a WHERE clause (EclipseLink's
   * JPQL of payments and orders, the JDBC of the console's override proposals): the Microsoft
   * driver sends those as nvarchar, so the column must be nvarchar too, or it is converted and
   * scanned.
   */
  private static final List<String> COMPARED_WITH_A_STRING =
      List.of(
          "shop_order.id",
          "shop_order.tenant_id",
          "order_line.order_id",
          "payment.id",
          "payment.tenant_id",
          "payment.order_id",
          "payment.active_order_id",
          "payment.idempotency_key",
          "payment.status",
          "payment.gateway_key",
          "payment.late_charge",
          "operator_override_proposal.tenant_id",
          "operator_override_proposal.idempotency_key",
          "operator_override_proposal.status");

  /** Every script's batches, by file name, in version order. */
  private static final Map<String, List<String>> BATCHES = new LinkedHashMap<>();

  @BeforeAll
  static void parseEveryScript() throws Exception {
    List<Path> scripts;
    try (Stream<Path> files = Files.list(SQL.resolve("sqlserver"))) {
      scripts =
          new ArrayList<>(
              files.filter(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql")).toList());
    }
    scripts.sort((a, b) -> Integer.compare(version(a), version(b)));
    for (Path script : scripts) {
      BATCHES.put(script.getFileName().toString(), parse(script));
    }
  }

  @Test
  void everyStringColumnComparedWithAJavaString_endsNvarcharInTheBinaryCollation() {
    Map<String, String> columns = columnsAfterEveryScript();
    for (String column : COMPARED_WITH_A_STRING) {
      assertThat(columns).as(column).containsKey(column);
      assertThat(columns.get(column)).as(column).matches("nvarchar\\(\\d+\\) " + BIN2);
    }
  }

  @Test
  void lengthsStayThoseOfTheFirstDefinition() {
    // A shorter column would truncate or refuse what the entities write (JPA @Column lengths).
    Map<String, String> columns = columnsAfterEveryScript();
    assertThat(columns.get("payment.status")).startsWith("nvarchar(16) ");
    assertThat(columns.get("payment.gateway_key")).startsWith("nvarchar(100) ");
    assertThat(columns.get("payment.late_charge")).startsWith("nvarchar(16) ");
    assertThat(columns.get("operator_override_proposal.status")).startsWith("nvarchar(16) ");
    assertThat(columns.get("operator_override_proposal.idempotency_key"))
        .startsWith("nvarchar(255) ");
  }

  @Test
  void v11_rebuildsWhatItDrops_aroundTheColumnChanges_andSetsTheModuleOptionsFirst() {
    List<String> batches = v11();
    assertThat(withoutComments(batches.get(0)))
        .containsPattern("(?i)SET\\s+ANSI_NULLS\\s+ON")
        .containsPattern("(?i)SET\\s+QUOTED_IDENTIFIER\\s+ON");
    int drops = indexOf(batches, "DROP ");
    int alters = indexOf(batches, "ALTER COLUMN");
    int creates = indexOf(batches, "CREATE INDEX");
    assertThat(drops).isLessThan(alters);
    assertThat(alters).isLessThan(creates);

    String script = withoutComments(String.join("\n", batches));
    Set<String> dropped =
        names(script, "(?i)DROP\\s+CONSTRAINT\\s+(\\w+)", "(?i)DROP\\s+INDEX\\s+(\\w+)");
    Set<String> created =
        names(
            script,
            "(?i)ADD\\s+CONSTRAINT\\s+(\\w+)",
            "(?i)CREATE\\s+(?:UNIQUE\\s+)?INDEX\\s+(\\w+)");
    assertThat(dropped)
        .contains("ck_payment_status", "ix_payment_status_created", "ck_payment_late_charge");
    assertThat(created).containsAll(dropped);
  }

  @Test
  void v11_keepsTheChecksValues_andRebuildsTheIndexesOnTheSameColumns() {
    String all = withoutComments(String.join("\n", allBatches()));
    // The last definition of each constraint or index, whatever script it is in.
    assertThat(literals(lastDefinition(all, "ck_payment_status")))
        .isEqualTo(literals(firstDefinition(all, "ck_payment_status")))
        .containsExactlyInAnyOrder("PENDING", "CAPTURED", "DECLINED", "ABANDONED");
    assertThat(literals(lastDefinition(all, "ck_payment_late_charge")))
        .isEqualTo(literals(firstDefinition(all, "ck_payment_late_charge")))
        .containsExactlyInAnyOrder("RECORDED", "DOUBLE_CHARGE", "MISMATCH", "DECLINED");
    assertThat(indexColumns(all, "ix_payment_status_created")).isEqualTo("status, created_at");
    assertThat(indexColumns(all, "ix_operator_override_proposal_key"))
        .isEqualTo("tenant_id, idempotency_key, status");
  }

  @Test
  void theCapturedAttemptOfAGatewayKey_isFoundByAnIndex_onEveryDatabase() throws Exception {
    String sqlServer = withoutComments(String.join("\n", allBatches()));
    assertThat(sqlServer)
        .containsPattern(
            "(?i)CREATE\\s+INDEX\\s+\\w+\\s+ON\\s+dbo\\.payment\\s*\\(gateway_key,\\s*status\\)");
    for (String vendor : List.of("postgresql", "h2")) {
      String scripts = withoutComments(allScripts(vendor));
      assertThat(scripts)
          .as(vendor)
          .containsPattern(
              "(?i)CREATE\\s+INDEX\\s+\\w+\\s+ON\\s+payment\\s*\\(gateway_key,\\s*status\\)");
    }
  }

  @Test
  void auditTrigger_asLastDefined_letsAStatementThatTouchesNoRowThrough_andRefusesAnyOther() {
    String trigger = null;
    for (String batch : allBatches()) {
      String sql = withoutComments(batch);
      if (sql.matches(
          "(?is)\\s*CREATE\\s+OR\\s+ALTER\\s+TRIGGER\\s+dbo\\.tr_operator_audit_append_only\\b.*")) {
        trigger = sql;
      }
    }
    assertThat(trigger).isNotNull();
    assertThat(trigger).containsPattern("(?i)INSTEAD\\s+OF\\s+UPDATE\\s*,\\s*DELETE");
    Matcher empty =
        Pattern.compile(
                "(?i)IF\\s+NOT\\s+EXISTS\\s*\\(\\s*SELECT\\s+1\\s+FROM\\s+deleted\\s*\\)\\s+RETURN")
            .matcher(trigger);
    assertThat(empty.find()).as("returns when deleted is empty, in\n" + trigger).isTrue();
    int refusal = trigger.toUpperCase(java.util.Locale.ROOT).indexOf("THROW");
    assertThat(refusal).as("refuses the rest").isGreaterThan(empty.end());
  }

  /**
   * {@code table.column} to {@code type collation} ("default" when none is named), as CREATE TABLE,
   * ALTER TABLE ... ADD and ALTER COLUMN leave them, applied in version order.
   */
  private static Map<String, String> columnsAfterEveryScript() {
    Map<String, String> columns = new LinkedHashMap<>();
    Pattern statement =
        Pattern.compile(
            "(?is)CREATE\\s+TABLE\\s+dbo\\.(\\w+)\\s*\\((.*?)\\);"
                + "|ALTER\\s+TABLE\\s+dbo\\.(\\w+)\\s+ADD\\s++(?!CONSTRAINT\\b)(.*?);"
                + "|ALTER\\s+TABLE\\s+dbo\\.(\\w+)\\s+ALTER\\s+COLUMN\\s+(.*?);");
    for (String batch : allBatches()) {
      Matcher m = statement.matcher(withoutComments(batch));
      while (m.find()) {
        if (m.group(1) != null) {
          definitions(m.group(1), m.group(2), columns);
        } else if (m.group(3) != null) {
          definitions(m.group(3), m.group(4), columns);
        } else {
          definitions(m.group(5), m.group(6), columns);
        }
      }
    }
    return columns;
  }

  private static void definitions(String table, String list, Map<String, String> columns) {
    Pattern column =
        Pattern.compile(
            "(?i)^\\s*(\\w+)\\s+(\\w+(?:\\(\\s*(?:\\d+|max)\\s*(?:,\\s*\\d+\\s*)?\\))?)"
                + "(?:\\s+COLLATE\\s+(\\w+))?");
    // Column definitions are separated by commas outside parentheses.
    int depth = 0;
    StringBuilder current = new StringBuilder();
    List<String> parts = new ArrayList<>();
    for (char c : list.toCharArray()) {
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      }
      if (c == ',' && depth == 0) {
        parts.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    parts.add(current.toString());
    for (String part : parts) {
      Matcher m = column.matcher(part);
      if (m.find() && !m.group(1).equalsIgnoreCase("CONSTRAINT")) {
        String collation = m.group(3) == null ? "default" : m.group(3);
        columns.put(
            table + "." + m.group(1).toLowerCase(java.util.Locale.ROOT),
            m.group(2).toLowerCase(java.util.Locale.ROOT).replace(" ", "") + " " + collation);
      }
    }
  }

  private static List<String> v11() {
    return BATCHES.entrySet().stream()
        .filter(e -> e.getKey().startsWith("V11__"))
        .map(Map.Entry::getValue)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no sql/sqlserver/V11__*.sql"));
  }

  private static List<String> allBatches() {
    return BATCHES.values().stream().flatMap(List::stream).toList();
  }

  private static String allScripts(String vendor) throws Exception {
    StringBuilder all = new StringBuilder();
    try (Stream<Path> files = Files.list(SQL.resolve(vendor))) {
      for (Path file :
          files.filter(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql")).toList()) {
        all.append(Files.readString(file, StandardCharsets.UTF_8)).append('\n');
      }
    }
    return all.toString();
  }

  private static String firstDefinition(String sql, String constraint) {
    Matcher m = definition(sql, constraint);
    assertThat(m.find()).as("a definition of " + constraint).isTrue();
    return m.group(1);
  }

  private static String lastDefinition(String sql, String constraint) {
    Matcher m = definition(sql, constraint);
    String last = null;
    while (m.find()) {
      last = m.group(1);
    }
    assertThat(last).as("a definition of " + constraint).isNotNull();
    return last;
  }

  private static Matcher definition(String sql, String constraint) {
    return Pattern.compile("(?is)CONSTRAINT\\s+" + constraint + "\\s+CHECK\\s*\\((.*?\\))\\s*\\)")
        .matcher(sql);
  }

  /** The quoted values of a CHECK, without the N of national literals. */
  private static Set<String> literals(String check) {
    Set<String> values = new TreeSet<>();
    Pattern.compile("N?'([^']*)'").matcher(check).results().forEach(r -> values.add(r.group(1)));
    return values;
  }

  /** The columns of the last CREATE INDEX of that name. */
  private static String indexColumns(String sql, String index) {
    Matcher m =
        Pattern.compile(
                "(?i)CREATE\\s+(?:UNIQUE\\s+)?INDEX\\s+"
                    + index
                    + "\\s+ON\\s+[\\w.]+\\s*\\(([^)]*)\\)")
            .matcher(sql);
    String last = null;
    while (m.find()) {
      last = m.group(1).trim().replaceAll("\\s*,\\s*", ", ");
    }
    assertThat(last).as("an index " + index).isNotNull();
    return last;
  }

  private static int version(Path file) {
    String name = file.getFileName().toString();
    return Integer.parseInt(name.substring(1, name.indexOf("__")));
  }

  private static Set<String> names(String sql, String... patterns) {
    Set<String> names = new TreeSet<>();
    for (String pattern : patterns) {
      Pattern.compile(pattern).matcher(sql).results().forEach(r -> names.add(r.group(1)));
    }
    return names;
  }
}
