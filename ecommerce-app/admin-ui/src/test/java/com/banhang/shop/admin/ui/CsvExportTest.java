package com.banhang.shop.admin.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvExportTest {

  @Test
  void quotesWhatNeedsQuotingAndDefusesFormulas() throws IOException {
    StringBuilder out = new StringBuilder();

    CsvExport.write(
        out,
        List.of("key", "reason"),
        List.of(
            List.of("k-1", "said \"charged\", twice"),
            Arrays.asList("=HYPERLINK(\"x\")", null),
            List.of("+1", "line\nbreak")));

    assertThat(out.toString())
        .isEqualTo(
            "key,reason\r\n"
                + "k-1,\"said \"\"charged\"\", twice\"\r\n"
                + "\"'=HYPERLINK(\"\"x\"\")\",\r\n"
                + "'+1,\"line\nbreak\"\r\n");
  }

  @Test
  void anExportIsOnRecordBeforeItsRowsLeave_andNotServedWithoutIt() throws IOException {
    List<String> recorded = new java.util.ArrayList<>();
    StringBuilder out = new StringBuilder();

    CsvExport.export(
        "night-op",
        "stuck-operations.csv",
        List.of("key"),
        operator -> List.of(List.of(operator + "-k1"), List.of("k2")),
        (operator, file, rows) -> recorded.add(operator + " " + file + " " + rows),
        out);

    assertThat(recorded).containsExactly("night-op stuck-operations.csv 2");
    assertThat(out.toString()).isEqualTo("key\r\nnight-op-k1\r\nk2\r\n");

    StringBuilder none = new StringBuilder();
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                CsvExport.export(
                    "night-op",
                    "audit.csv",
                    List.of("key"),
                    operator -> List.of(List.of("k1")),
                    (operator, file, rows) -> {
                      throw new IllegalStateException("cannot write the operator audit");
                    },
                    none))
        .hasMessageContaining("audit");
    assertThat(none).isEmpty();
  }
}
