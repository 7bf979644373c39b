package com.banhang.shop.payments.infrastructure.persistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * V16 (a late charge marked handled) as the three databases get it. H2 and PostgreSQL run it in
 * H2PaymentJdbcTest and PostgresPaymentJdbcTest; SQL Server's is read here offline, split into
 * batches by Flyway's own SQL Server parser, since no SQL Server runs where this project is built.
 * This proves what the script says, not that SQL Server accepts it.
 */
class LateChargeHandledScriptsTest {

  private static final String V16 = "V16__late_charge_handled.sql";

  @Test
  void everyDatabase_getsTheFourColumns_andBothChecks() throws Exception {
    for (String vendor : List.of("h2", "postgresql", "sqlserver")) {
      String script = MigrationScripts.withoutComments(MigrationScripts.text(vendor, V16));
      for (String column : List.of("handled_at", "handled_by", "handling", "handled_reason")) {
        assertThat(script).as(vendor).containsPattern("(?i)\\b" + column + "\\s+\\w+");
      }
      assertThat(script)
          .as(vendor)
          .containsPattern(
              "(?i)ck_payment_handling\\s+CHECK \\(handling IN \\(N?'REFUNDED', N?'ACCEPTED'\\)\\)")
          .containsPattern("(?i)ck_payment_late_charge_handled\\s+CHECK")
          .containsPattern(
              "(?i)late_charge IN \\(N?'DOUBLE_CHARGE', N?'MISMATCH', N?'DECLINED'\\)");
    }
  }

  @Test
  void sqlServer_columnsFollowV11_handlingInTheBinaryCollation_wordsAsNvarchar() throws Exception {
    String script =
        MigrationScripts.withoutComments(String.join("\n", MigrationScripts.sqlServerBatches(V16)));
    assertThat(script)
        .containsPattern("(?i)handled_at\\s+datetimeoffset\\(3\\)\\s+NULL")
        .containsPattern("(?i)handled_by\\s+nvarchar\\(100\\)\\s+NULL")
        .containsPattern(
            "(?i)handling\\s+nvarchar\\(16\\)\\s+COLLATE\\s+Latin1_General_100_BIN2\\s+NULL")
        .containsPattern("(?i)handled_reason\\s+nvarchar\\(1000\\)\\s+NULL")
        .doesNotContainPattern("(?i)\\bvarchar\\(");
  }

  @Test
  void sqlServer_addsTheChecksInABatchAfterTheColumns() throws Exception {
    List<String> batches = MigrationScripts.sqlServerBatches(V16);
    int columns = indexOf(batches, "handled_reason nvarchar");
    int check = indexOf(batches, "ck_payment_late_charge_handled");
    assertThat(columns).isLessThan(check);
  }

  private static int indexOf(List<String> batches, String text) {
    for (int i = 0; i < batches.size(); i++) {
      if (MigrationScripts.withoutComments(batches.get(i)).replaceAll("\\s+", " ").contains(text)) {
        return i;
      }
    }
    throw new AssertionError("no batch with " + text);
  }
}
