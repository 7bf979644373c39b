package it.com.banhang.shop.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.List;
import java.util.regex.Pattern;

/** Execution plans the SQL Server kept for the shop's statements, and what a plan must show. */
final class Plans {

  static final Pattern SCAN =
      Pattern.compile("PhysicalOp=\"(Clustered Index Scan|Index Scan|Table Scan)\"");

  private Plans() {}

  /** The cached plan of the shop's statement whose text is like {@code like} (upper case). */
  static String statementPlan(String what, String like) throws SQLException {
    return onePlan(
        what,
        "SELECT p.query_plan FROM sys.dm_exec_query_stats s"
            + " CROSS APPLY sys.dm_exec_sql_text(s.sql_handle) t"
            + " CROSS APPLY sys.dm_exec_text_query_plan(s.plan_handle,"
            + " s.statement_start_offset, s.statement_end_offset) p"
            + " WHERE UPPER(t.text) LIKE ? AND t.text NOT LIKE '%dm[_]exec[_]query[_]stats%'",
        like);
  }

  static String onePlan(String what, String sql, Object... parameters) throws SQLException {
    List<Object[]> plans = SqlServer.rows(sql, parameters);
    assertThat(plans)
        .as(what + ": no cached plan; the shop issued no such statement, or its SQL differs")
        .isNotEmpty();
    StringBuilder all = new StringBuilder();
    for (Object[] plan : plans) {
      assertThat(plan[0]).as(what + ": plan text").isNotNull();
      all.append(plan[0]).append('\n');
    }
    return all.toString();
  }

  static void assertSeeks(
      String what, String plan, String table, String index, String... keyColumns) {
    assertThat(plan)
        .as(what + ": a seek on " + index)
        .containsPattern("PhysicalOp=\"(Clustered Index Seek|Index Seek)\"")
        .contains("Index=\"[" + index + "]\"");
    assertThat(SCAN.matcher(plan).find()).as(what + ": no scan in\n" + plan).isFalse();
    for (String column : keyColumns) {
      assertNoConversionOf(what, plan, table, column);
    }
  }

  /** No CONVERT_IMPLICIT(type, [db].[dbo].[table].[column], style) in the plan. */
  static void assertNoConversionOf(String what, String plan, String table, String column) {
    Pattern conversion =
        Pattern.compile(
            "CONVERT_IMPLICIT\\((?:[^()]|\\([^()]*\\))*\\[" + table + "\\]\\.\\[" + column + "\\]",
            Pattern.CASE_INSENSITIVE);
    assertThat(conversion.matcher(plan).find())
        .as(what + ": the key column " + table + "." + column + " is converted in\n" + plan)
        .isFalse();
  }
}
