package com.banhang.shop.payments.infrastructure.persistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * V13 as the three databases get it. H2 and PostgreSQL run it in H2PaymentJdbcTest and
 * PostgresPaymentJdbcTest; SQL Server's is read here offline, split into batches by Flyway's own
 * SQL Server parser, since no SQL Server runs where this project is built. This proves what the
 * script says, not that SQL Server accepts it.
 */
class PaymentTimelineScriptsTest {

  private static final String V13 = "V13__payment_timeline.sql";

  /** The indexes the search and the timeline seek, by name and columns, on every database. */
  private static final List<String> INDEXES =
      List.of(
          "ix_payment_timeline_key ON (dbo\\.)?payment_timeline \\(tenant_id, idempotency_key, id\\)",
          "ix_payment_gateway_charge_id ON (dbo\\.)?payment \\(gateway_charge_id\\)",
          "ix_payment_late_charge_id ON (dbo\\.)?payment \\(late_charge_id\\)",
          "ix_payment_idempotency_key ON (dbo\\.)?payment \\(idempotency_key\\)",
          "ix_payment_tenant_created ON (dbo\\.)?payment \\(tenant_id, created_at\\)",
          "ix_shop_order_merchant_order_id ON (dbo\\.)?shop_order \\(merchant_order_id\\)");

  @Test
  void everyDatabase_getsTheTableAndEveryIndexTheLookupsSeek() throws Exception {
    for (String vendor : List.of("h2", "postgresql", "sqlserver")) {
      String script = MigrationScripts.withoutComments(MigrationScripts.text(vendor, V13));
      assertThat(script).as(vendor).containsPattern("(?i)CREATE TABLE (dbo\\.)?payment_timeline");
      for (String index : INDEXES) {
        assertThat(script).as(vendor).containsPattern("(?i)CREATE INDEX " + index);
      }
    }
  }

  @Test
  void sqlServer_comparedColumnsAreNvarcharInTheBinaryCollation_asTheDriverSendsThem()
      throws Exception {
    String script =
        MigrationScripts.withoutComments(String.join("\n", MigrationScripts.sqlServerBatches(V13)));
    for (String column :
        List.of(
            "tenant_id\\s+nvarchar\\(100\\)",
            "idempotency_key\\s+nvarchar\\(255\\)",
            "payment_id\\s+nvarchar\\(36\\)",
            "ALTER COLUMN gateway_charge_id nvarchar\\(100\\)",
            "ALTER COLUMN late_charge_id nvarchar\\(100\\)",
            "ALTER COLUMN merchant_order_id nvarchar\\(64\\)")) {
      assertThat(script)
          .containsPattern("(?i)" + column + "\\s+COLLATE\\s+Latin1_General_100_BIN2");
    }
  }

  @Test
  void sqlServer_dropsTheMerchantIndexBeforeChangingItsColumn_andRebuildsItUnchanged()
      throws Exception {
    List<String> batches = MigrationScripts.sqlServerBatches(V13);
    int drop = indexOf(batches, "DROP INDEX uq_shop_order_merchant");
    int alter = indexOf(batches, "ALTER COLUMN merchant_order_id");
    int rebuild = indexOf(batches, "CREATE UNIQUE INDEX uq_shop_order_merchant");
    assertThat(drop).isLessThan(alter);
    assertThat(alter).isLessThan(rebuild);
    assertThat(MigrationScripts.withoutComments(batches.get(rebuild)))
        .containsPattern(
            "(?i)uq_shop_order_merchant ON dbo\\.shop_order \\(tenant_id, merchant_order_id\\)\\s+"
                + "WHERE merchant_order_id IS NOT NULL");
  }

  @Test
  void sqlServer_trigger_isAloneInItsBatch_letsNoRowThrough_andRefusesTheRest() throws Exception {
    String trigger = null;
    for (String batch : MigrationScripts.sqlServerBatches(V13)) {
      if (batch.contains("tr_payment_timeline_append_only")) {
        trigger = MigrationScripts.withoutComments(batch).strip();
      }
    }
    assertThat(trigger)
        .matches(
            "(?is)^CREATE\\s+OR\\s+ALTER\\s+TRIGGER\\s+dbo\\.tr_payment_timeline_append_only.*")
        .containsPattern("(?i)INSTEAD\\s+OF\\s+UPDATE\\s*,\\s*DELETE")
        .containsPattern(
            "(?i)IF\\s+NOT\\s+EXISTS\\s*\\(\\s*SELECT\\s+1\\s+FROM\\s+deleted\\s*\\)\\s+RETURN;"
                + "\\s+THROW\\s+50001");
  }

  @Test
  void sqlServer_setsTheModuleOptionsFirst() throws Exception {
    assertThat(MigrationScripts.withoutComments(MigrationScripts.sqlServerBatches(V13).get(0)))
        .containsPattern("(?i)SET\\s+ANSI_NULLS\\s+ON")
        .containsPattern("(?i)SET\\s+QUOTED_IDENTIFIER\\s+ON");
  }

  private static int indexOf(List<String> batches, String text) {
    for (int i = 0; i < batches.size(); i++) {
      if (MigrationScripts.withoutComments(batches.get(i)).contains(text)) {
        return i;
      }
    }
    throw new AssertionError("no batch with " + text);
  }
}
