package com.banhang.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.conformance.FakeApi.Flaw;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: one line per rule, the summary line, and the exit code. */
class MainTest {

  private static final String LINE =
      "(PASS|FAIL|NOT CHECKABLE)  [a-z0-9.-]+  [^ ].*  \\((draft|contract)[^\\n]*\\)(  .+)?";

  @Test
  void aCorrectApi_printsALinePerRule_andExitsZero() throws Exception {
    try (FakeApi api = FakeApi.start()) {
      Output output = run(args(Fixtures.orders(api)));

      assertThat(output.exitCode).isZero();
      List<String> lines = output.out.lines().toList();
      assertThat(lines.get(0)).startsWith("conformance-kit: POST " + api.baseUrl() + "/orders");
      List<String> ruleLines = lines.subList(1, lines.size() - 1);
      assertThat(ruleLines)
          .hasSize(Rules.all().size())
          .allSatisfy(l -> assertThat(l).matches(LINE));
      assertThat(ruleLines)
          .filteredOn(l -> l.startsWith("NOT CHECKABLE  key.reused-creates-nothing  "))
          .singleElement()
          .asString()
          .contains("not visible over HTTP");
      assertThat(lines.get(lines.size() - 1))
          .isEqualTo((Rules.all().size() - 1) + " passed, 0 failed, 1 not checkable");
    }
  }

  @Test
  void aBrokenApi_printsTheFailuresWithTheirDetail_andExitsOne(@TempDir Path dir) throws Exception {
    try (FakeApi api = FakeApi.start(Flaw.IGNORES_KEY)) {
      Path file = dir.resolve("kit.properties");
      StringBuilder properties = new StringBuilder();
      Fixtures.orders(api)
          .forEach(
              (name, value) ->
                  properties
                      .append(name)
                      .append('=')
                      .append(value.replace("\\", "\\\\"))
                      .append('\n'));
      Files.writeString(file, properties, StandardCharsets.UTF_8);

      Output output = run(List.of("--config", file.toString()));

      assertThat(output.exitCode).isEqualTo(1);
      assertThat(output.out)
          .contains("FAIL  key.missing  no Idempotency-Key is 400, a problem document  (")
          .contains("expected 400, got 201");
      assertThat(output.out.lines().reduce((a, b) -> b).orElseThrow())
          .matches("[0-9]+ passed, [1-9][0-9]* failed, 1 not checkable");
    }
  }

  @Test
  void aWrongCommandLine_printsUsage_andExitsTwo() {
    Output output = run(List.of("--base-url", "http://localhost:9080"));

    assertThat(output.exitCode).isEqualTo(2);
    assertThat(output.err).contains("missing setting: endpoint").contains("--body-template");
    assertThat(output.out).isEmpty();
  }

  @Test
  void help_listsEverySetting() {
    Output output = run(List.of("--help"));

    assertThat(output.exitCode).isZero();
    for (String name : KitConfig.SETTINGS.keySet()) {
      assertThat(output.out).contains("--" + name);
    }
  }

  private static List<String> args(Map<String, String> settings) {
    List<String> args = new ArrayList<>();
    settings.forEach(
        (name, value) -> {
          args.add("--" + name);
          args.add(value);
        });
    return args;
  }

  private record Output(int exitCode, String out, String err) {}

  private static Output run(List<String> args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Main.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Output(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
