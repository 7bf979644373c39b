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
}
