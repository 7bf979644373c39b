package com.banhang.shop.payments.infrastructure.persistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The statements on H2, the embedded default, migrated from sql/h2; H2 has no trigger for the
 * timeline (as for the operator audit), its runtime login's grants keep it append-only. Also: H2's
 * plans, which say which index a statement reads.
 */
class H2PaymentJdbcTest extends PaymentJdbcContract {

  private static JdbcDataSource dataSource;

  @BeforeAll
  static void createDatabase() {
    dataSource = new JdbcDataSource();
    dataSource.setURL("jdbc:h2:mem:payments-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    migrate(dataSource, "h2");
  }

  @Override
  DataSource dataSource() {
    return dataSource;
  }

  @Override
  boolean refusesChangesToTheTimeline() {
    return false;
  }

  @Test
  void everyLookup_readsAnIndex_neverTheWholeTable() throws SQLException {
    assertThat(plan(sql("gateway_charge_id = ?")))
        .containsIgnoringCase("IX_PAYMENT_GATEWAY_CHARGE_ID");
    assertThat(plan(sql("late_charge_id = ?"))).containsIgnoringCase("IX_PAYMENT_LATE_CHARGE_ID");
    assertThat(plan(sql("idempotency_key = ?"))).containsIgnoringCase("IX_PAYMENT_IDEMPOTENCY_KEY");
    assertThat(plan(sql("gateway_key = ?"))).containsIgnoringCase("IX_PAYMENT_GATEWAY_KEY");
    assertThat(plan(sql("order_id = ?"))).containsIgnoringCase("IX_PAYMENT_ORDER");
    assertThat(plan(sql("id = ?"))).containsIgnoringCase("PRIMARY_KEY");
    assertThat(plan(sql("tenant_id >= ? AND tenant_id < ?")))
        .containsIgnoringCase("IX_PAYMENT_TENANT_CREATED");
    assertThat(plan(JdbcPaymentTimeline.OF_KEY)).containsIgnoringCase("IX_PAYMENT_TIMELINE_KEY");
    assertThat(plan("SELECT id FROM shop_order WHERE merchant_order_id = ?"))
        .containsIgnoringCase("IX_SHOP_ORDER_MERCHANT_ORDER_ID");
  }

  private static String sql(String where) {
    return "SELECT id FROM payment WHERE " + where + " ORDER BY created_at DESC";
  }

  /** H2's plan of a statement, its parameters bound to a string (and 1 for a row count). */
  private static String plan(String sql) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement explain = connection.prepareStatement("EXPLAIN " + sql)) {
      int parameters = explain.getParameterMetaData().getParameterCount();
      for (int i = 1; i <= parameters; i++) {
        explain.setString(i, i == parameters && sql.contains("ROWS ONLY") ? "1" : "x");
      }
      try (ResultSet rs = explain.executeQuery()) {
        rs.next();
        return rs.getString(1);
      }
    }
  }
}
