package com.banhang.docs;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard shipped under docs/grafana reads only series the shop exports: every metric
 * a panel's query names is one docs/observability.md lists (that table is itself checked against
 * the running server by the HTTP suite), so a renamed metric breaks this test instead of leaving an
 * empty panel on someone's night shift.
 */
class GrafanaDashboardTest {

  private static Path root() {
    // Set by this module's pom, as for the other checks here.
    return Paths.get(System.getProperty("shop.root", "../..")).toAbsolutePath().normalize();
  }

  /** A series name: the shop's prefixes, then the name up to a label set, a range or a space. */
  private static final Pattern SERIES =
      Pattern.compile("\\b((?:idempotency|payments|shop)_[a-z_]+)\\b");

  @Test
  void everyPanelQueriesOnlyMetricsTheObservabilityGuideLists() throws IOException {
    String guide = Files.readString(root().resolve("docs/observability.md"));
    List<String> queries = queries(read());
    assertThat(queries).hasSizeGreaterThanOrEqualTo(10);

    Set<String> named = new TreeSet<>();
    for (String query : queries) {
      Matcher series = SERIES.matcher(query);
      while (series.find()) {
        named.add(series.group(1));
      }
    }
    assertThat(named).isNotEmpty();
    for (String metric : named) {
      // Histograms are listed by their bucket series; the guide names the others whole.
      assertThat(guide).as("docs/observability.md lists %s", metric).contains("`" + metric);
    }
  }

  @Test
  void everyPanelHasATitleADescriptionAndTheDashboardsDatasourceVariable() throws IOException {
    JsonObject dashboard = read();
    assertThat(dashboard.getString("uid")).isNotBlank();
    for (JsonValue value : dashboard.getJsonArray("panels")) {
      JsonObject panel = value.asJsonObject();
      assertThat(panel.getString("title")).isNotBlank();
      assertThat(panel.getString("description")).as(panel.getString("title")).isNotBlank();
      assertThat(panel.getJsonObject("datasource").getString("uid")).isEqualTo("${datasource}");
    }
  }

  private static JsonObject read() throws IOException {
    try (Reader file = Files.newBufferedReader(root().resolve("docs/grafana/shop-dashboard.json"));
        JsonReader reader = Json.createReader(file)) {
      return reader.readObject();
    }
  }

  private static List<String> queries(JsonObject dashboard) {
    List<String> queries = new ArrayList<>();
    for (JsonValue panel : dashboard.getJsonArray("panels")) {
      for (JsonValue target : panel.asJsonObject().getJsonArray("targets")) {
        queries.add(target.asJsonObject().getString("expr"));
      }
    }
    return queries;
  }
}
