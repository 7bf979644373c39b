package com.banhang.shop.payments.api;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reports' JSON, as the operator API answers it, and their log lines: the code calls the counts
 * findings, the published name stays {@code outcomes} (the storm driver and the operator API's
 * clients read it).
 */
class ReportsJsonTest {

  @Test
  void aReconciliationReportCountsItsFindingsUnderOutcomes() throws Exception {
    try (Jsonb jsonb = JsonbBuilder.create()) {
      String json =
          jsonb.toJson(ReconciliationReport.of(List.of(ReconciliationReport.Finding.CAPTURED)));

      assertThat(json).contains("\"outcomes\":{").contains("\"CAPTURED\":1");
      assertThat(json).doesNotContain("findings");
    }
  }

  @Test
  void aLateChargeReportCountsItsFindingsUnderOutcomes() throws Exception {
    try (Jsonb jsonb = JsonbBuilder.create()) {
      String json =
          jsonb.toJson(LateChargeReport.of(List.of(LateChargeReport.Finding.DOUBLE_CHARGE)));

      assertThat(json).contains("\"outcomes\":{").contains("\"DOUBLE_CHARGE\":1");
      assertThat(json).doesNotContain("findings");
    }
  }

  @Test
  void theRunsLogLinesKeepTheirShape() {
    assertThat(ReconciliationReport.of(List.of()).toString())
        .startsWith("ReconciliationReport[examined=0, outcomes={CAPTURED=0,");
    assertThat(LateChargeReport.of(List.of()).toString())
        .startsWith("LateChargeReport[examined=0, outcomes={RECORDED=0,");
  }
}
