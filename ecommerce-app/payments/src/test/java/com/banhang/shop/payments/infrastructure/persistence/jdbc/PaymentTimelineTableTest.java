package com.banhang.shop.payments.infrastructure.persistence.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The timeline is append-only in the code too: no source of the payments context has a statement
 * that could change or remove its rows, and only {@link JdbcPaymentTimeline} writes it (H2 has no
 * trigger to refuse the rest).
 */
class PaymentTimelineTableTest {

  private static final Path SOURCES = Path.of("src/main/java");

  @Test
  void onlyTheJdbcTimeline_insertsIntoTheTable_andNothingUpdatesDeletesOrTruncatesIt()
      throws IOException {
    Pattern changes =
        Pattern.compile(
            "(?i)(UPDATE\\s+payment_timeline|DELETE\\s+FROM\\s+payment_timeline"
                + "|TRUNCATE\\s+(TABLE\\s+)?payment_timeline|MERGE\\s+INTO\\s+payment_timeline)");
    Pattern inserts = Pattern.compile("(?i)INSERT\\s+INTO\\s+payment_timeline");
    List<String> changing = new ArrayList<>();
    List<String> inserting = new ArrayList<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String text = Files.readString(file);
        if (changes.matcher(text).find()) {
          changing.add(file.getFileName().toString());
        }
        if (inserts.matcher(text).find()) {
          inserting.add(file.getFileName().toString());
        }
      }
    }
    assertThat(changing).isEmpty();
    assertThat(inserting).containsExactly("JdbcPaymentTimeline.java");
  }
}
