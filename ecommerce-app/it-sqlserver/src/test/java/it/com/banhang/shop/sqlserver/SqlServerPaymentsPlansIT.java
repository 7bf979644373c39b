package it.com.banhang.shop.sqlserver;

import static it.com.banhang.shop.Payments.newOrder;
import static it.com.banhang.shop.Payments.pay;
import static it.com.banhang.shop.ShopApi.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.restassured.response.Response;
import it.com.banhang.shop.Payments;
import it.com.banhang.shop.ShopApi;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * What V11 changed, on a real SQL Server (docs/sqlserver.md, "Payments columns, the audit trigger
 * and the LIKE escape"): the payments and override-proposal columns the shop compares with Java
 * strings are nvarchar in the binary collation, the late-charge sweep's statements and the
 * console's flagged late charges convert none of them, the captured attempt of a gateway key is
 * sought through its index while the attempt is locked, the audit's trigger lets a statement that
 * touches no row through, and the audit search's escaped bracket is literal. Written for the first
 * run; it has never run.
 */
@Order(3)
@EnabledIfEnvironmentVariable(
    named = "SQLSERVER_JDBC_URL",
    matches = ".+",
    disabledReason = SqlServer.SKIPPED)
class SqlServerPaymentsPlansIT {

  private static final String BIN2 = "Latin1_General_100_BIN2";

  @Test
  void columnsTheShopComparesWithStrings_areNvarcharBin2_andTheIndexesHaveTheirColumns()
      throws Exception {
    Map<String, String> columns = new LinkedHashMap<>();
    for (Object[] row :
        SqlServer.rows(
            "SELECT t.name, c.name, ty.name, c.collation_name FROM sys.columns c"
                + " JOIN sys.tables t ON t.object_id = c.object_id"
                + " JOIN sys.types ty ON ty.user_type_id = c.user_type_id"
                + " WHERE t.schema_id = SCHEMA_ID('dbo')")) {
      columns.put(row[0] + "." + row[1], row[2] + " " + row[3]);
    }
    for (String column :
        List.of(
            "payment.status",
            "payment.gateway_key",
            "payment.late_charge",
            "operator_override_proposal.status",
            "operator_override_proposal.idempotency_key")) {
      assertThat(columns.get(column)).as(column).isEqualTo("nvarchar " + BIN2);
    }
    assertThat(indexColumns("payment", "ix_payment_gateway_key")).isEqualTo("gateway_key,status");
    assertThat(indexColumns("payment", "ix_payment_status_created")).isEqualTo("status,created_at");
    assertThat(indexColumns("payment", "ix_payment_late_charge"))
        .isEqualTo("late_charge,late_checked_at");
    assertThat(indexColumns("operator_override_proposal", "ix_operator_override_proposal_key"))
        .isEqualTo("tenant_id,idempotency_key,status");
    assertThat(
            SqlServer.number(
                "SELECT COUNT(*) FROM sys.check_constraints WHERE name IN"
                    + " ('ck_payment_status', 'ck_payment_late_charge')"))
        .as("the CHECK constraints V11 rebuilt")
        .isEqualTo(2);
  }

  /**
   * A captured payment made to look abandoned is a candidate of the sweep (nothing captured under
   * its gateway key any more); the gateway has its charge, so the sweep locks it and asks for the
   * captured attempt of its gateway key (none), then flags a double charge (the order is paid). The
   * row is put back as it was afterwards.
   */
  @Test
  void lateChargeSweep_andTheConsolesFlaggedCharges_convertNoColumn_andTheLockedLookupSeeks()
      throws Exception {
    String orderId = newOrder("alice");
    Response paid = pay("alice", orderId, newKey(), "pm_card_ok");
    assertThat(paid.statusCode()).as(paid.asString()).isEqualTo(201);
    String paymentId = paid.path("id");
    String gatewayKey =
        (String)
            SqlServer.rows("SELECT gateway_key FROM payment WHERE id = ?", paymentId).get(0)[0];
    // A gateway key compares exactly, as on PostgreSQL: another case is another key.
    String otherCase =
        gatewayKey.equals(gatewayKey.toUpperCase(Locale.ROOT))
            ? gatewayKey.toLowerCase(Locale.ROOT)
            : gatewayKey.toUpperCase(Locale.ROOT);
    assertThat(otherCase).isNotEqualTo(gatewayKey);
    assertThat(SqlServer.number("SELECT COUNT(*) FROM payment WHERE gateway_key = ?", otherCase))
        .isZero();

    update(
        "UPDATE payment SET status = 'ABANDONED', active_order_id = NULL WHERE id = ?", paymentId);
    try {
      Response sweep = Payments.sweepLateChargesNow();
      assertThat(sweep.statusCode()).as(sweep.asString()).isEqualTo(200);
      assertThat(
              SqlServer.rows("SELECT late_charge FROM payment WHERE id = ?", paymentId).get(0)[0])
          .as(
              "the sweep reached the attempt and decided it (it takes the oldest"
                  + " payments.late-charges.batch-size candidates; older ones of earlier runs"
                  + " on the same database come first)")
          .isEqualTo("DOUBLE_CHARGE");
      Response flagged =
          ShopApi.as("operator").queryParam("limit", 10).get("/api/v1/admin/late-charges");
      assertThat(flagged.statusCode()).as(flagged.asString()).isEqualTo(200);

      String candidates = Plans.statementPlan("the sweep's candidates", "%NOT EXISTS%GATEWAY_KEY%");
      Plans.assertNoConversionOf("candidates", candidates, "payment", "status");
      Plans.assertNoConversionOf("candidates", candidates, "payment", "gateway_key");
      System.out.println("SQL Server plan operators of the sweep's candidates: " + ops(candidates));

      String captured =
          Plans.statementPlan(
              "the captured attempt of a gateway key", "%WHERE ((GATEWAY_KEY = @P%");
      assertThat(captured)
          .as("findCapturedByGatewayKey: a seek on ix_payment_gateway_key")
          .containsPattern("PhysicalOp=\"Index Seek\"")
          .contains("Index=\"[ix_payment_gateway_key]\"");
      assertThat(Plans.SCAN.matcher(captured).find())
          .as("findCapturedByGatewayKey runs while the attempt is locked: no scan in\n" + captured)
          .isFalse();
      Plans.assertNoConversionOf("captured lookup", captured, "payment", "gateway_key");
      Plans.assertNoConversionOf("captured lookup", captured, "payment", "status");

      String flaggedPlan = Plans.statementPlan("the flagged late charges", "%LATE_CHARGE IN (%");
      Plans.assertNoConversionOf("flagged late charges", flaggedPlan, "payment", "late_charge");
      System.out.println(
          "SQL Server plan operators of the flagged late charges: " + ops(flaggedPlan));
    } finally {
      update(
          "UPDATE payment SET status = 'CAPTURED', active_order_id = order_id, late_charge = NULL,"
              + " late_charge_id = NULL, late_charge_detail = NULL, late_checked_at = NULL"
              + " WHERE id = ?",
          paymentId);
    }
  }

  @Test
  void auditTrigger_letsAStatementThatTouchesNoRowThrough_andRefusesOneThatWould()
      throws Exception {
    assertThat(Payments.sweepLateChargesNow().statusCode()).isEqualTo(200);
    long entries = SqlServer.number("SELECT COUNT(*) FROM operator_audit");
    assertThat(entries).as("the sweep above was audited").isPositive();

    assertThat(update("DELETE FROM operator_audit WHERE id < 0")).isZero();
    assertThat(update("UPDATE operator_audit SET reason = reason WHERE id < 0")).isZero();
    assertThatThrownBy(
            () ->
                update(
                    "UPDATE operator_audit SET reason = 'rewritten'"
                        + " WHERE id = (SELECT MAX(id) FROM operator_audit)"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("append-only");
    assertThatThrownBy(() -> update("DELETE FROM operator_audit"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("append-only");
    assertThat(SqlServer.number("SELECT COUNT(*) FROM operator_audit")).isEqualTo(entries);
  }

  @Test
  void escapedBracket_isLiteral_whereAnUnescapedOneIsASet() throws Exception {
    // AuditLog's pattern for "[ab]": the bracket escaped with the ESCAPE '!' it names.
    String matches = "SELECT CASE WHEN ? LIKE ? ESCAPE '!' THEN 1 ELSE 0 END";
    assertThat(SqlServer.number(matches, "x[ab]y", "%![ab]%")).isEqualTo(1);
    assertThat(SqlServer.number(matches, "xay", "%![ab]%")).isZero();
    assertThat(SqlServer.number(matches, "xay", "%[ab]%")).as("unescaped: a set").isEqualTo(1);
    assertThat(SqlServer.number(matches, "50%_off", "%50!%!_off%")).isEqualTo(1);
    assertThat(SqlServer.number(matches, "50xxoff", "%50!%!_off%")).isZero();
    assertThat(SqlServer.number(matches, "a]b\\c!", "%a]b\\c!!%")).isEqualTo(1);
  }

  private static int update(String sql, Object... parameters) throws SQLException {
    try (Connection connection = SqlServer.connect();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setObject(i + 1, parameters[i]);
      }
      return statement.executeUpdate();
    }
  }

  private static String indexColumns(String table, String index) throws SQLException {
    List<String> names = new ArrayList<>();
    for (Object[] row :
        SqlServer.rows(
            "SELECT c.name FROM sys.indexes i"
                + " JOIN sys.index_columns ic ON ic.object_id = i.object_id"
                + " AND ic.index_id = i.index_id"
                + " JOIN sys.columns c ON c.object_id = ic.object_id AND c.column_id = ic.column_id"
                + " WHERE i.object_id = OBJECT_ID(?) AND i.name = ? AND ic.is_included_column = 0"
                + " ORDER BY ic.key_ordinal",
            "dbo." + table,
            index)) {
      names.add((String) row[0]);
    }
    return String.join(",", names);
  }

  /** The physical operators and the indexes of a plan, for the run's log. */
  private static String ops(String plan) {
    List<String> operators =
        Pattern.compile("PhysicalOp=\"([^\"]+)\"")
            .matcher(plan)
            .results()
            .map(r -> r.group(1))
            .toList();
    List<String> indexes =
        Pattern.compile("Index=\"\\[([^\\]]+)\\]\"")
            .matcher(plan)
            .results()
            .map(r -> r.group(1))
            .distinct()
            .toList();
    return operators + " on " + indexes;
  }
}
