package com.banhang.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.conformance.ConformanceKit.Report;
import com.banhang.conformance.ConformanceKit.Result;
import com.banhang.conformance.FakeApi.Flaw;
import com.banhang.conformance.Verdict.Grade;
import java.net.URI;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The kit against the fake API: a correct one passes every rule that HTTP can check, and each flaw
 * fails the rules it breaks. Together, every checkable rule is shown to fail when it should.
 */
class ConformanceKitTest {

  /** The rule that no HTTP exchange can judge. */
  private static final String NOT_CHECKABLE = "key.reused-creates-nothing";

  /** For each flaw, the rules that must fail against it. */
  private static final Map<Flaw, Set<String>> BREAKS = new EnumMap<>(Flaw.class);

  static {
    BREAKS.put(
        Flaw.IGNORES_KEY,
        Set.of(
            "key.missing",
            "key.empty",
            "key.too-long",
            "key.control-character",
            "key.space",
            "key.unterminated-quote",
            "replay.identical",
            "key.reused-other-body",
            "concurrency.duplicates"));
    BREAKS.put(
        Flaw.NEW_RESOURCE_ON_RETRY,
        Set.of(
            "key.both-forms",
            "replay.identical",
            "key.reused-other-body",
            "fingerprint.respelt-body",
            "concurrency.duplicates",
            "tenant.independent"));
    BREAKS.put(
        Flaw.SERVER_ERROR_ON_BAD_JSON,
        Set.of(
            "body.truncated-json",
            "body.wrong-types",
            "body.duplicate-member",
            "body.deep-nesting",
            "body.invalid-utf8"));
    BREAKS.put(Flaw.HTML_ERRORS, Set.of("key.missing", "key.empty", "body.truncated-json"));
    BREAKS.put(
        Flaw.LENIENT_KEY_SYNTAX,
        Set.of("key.empty", "key.control-character", "key.space", "key.unterminated-quote"));
    BREAKS.put(Flaw.ACCEPTS_LONG_KEYS, Set.of("key.too-long"));
    BREAKS.put(Flaw.SHORT_KEYS_ONLY, Set.of("key.longest-accepted"));
    BREAKS.put(Flaw.QUOTES_ARE_PART_OF_KEY, Set.of("key.both-forms"));
    BREAKS.put(Flaw.RAW_BYTE_FINGERPRINT, Set.of("fingerprint.respelt-body"));
    BREAKS.put(Flaw.NO_LOCK, Set.of("concurrency.duplicates"));
    BREAKS.put(Flaw.NO_RETRY_AFTER, Set.of("concurrency.duplicates"));
    BREAKS.put(Flaw.GLOBAL_KEYS, Set.of("tenant.independent"));
    BREAKS.put(Flaw.REPLAY_DIFFERS, Set.of("replay.identical", "key.both-forms"));
    BREAKS.put(Flaw.NO_REPLAY_HEADER, Set.of("replay.identical", "concurrency.duplicates"));
    BREAKS.put(Flaw.NO_EXPIRY_HEADER, Set.of("expiry.advertised"));
    BREAKS.put(Flaw.EXPIRY_ISO_8601, Set.of("expiry.advertised"));
    BREAKS.put(
        Flaw.STORES_REFUSALS,
        Set.of(
            "body.truncated-json",
            "body.wrong-types",
            "body.too-large",
            "body.wrong-content-type",
            "body.duplicate-member",
            "body.deep-nesting",
            "body.invalid-utf8"));
    BREAKS.put(Flaw.NO_SIZE_LIMIT, Set.of("body.too-large"));
    BREAKS.put(Flaw.ACCEPTS_ANY_CONTENT_TYPE, Set.of("body.wrong-content-type"));
    BREAKS.put(Flaw.ACCEPTS_DUPLICATE_MEMBERS, Set.of("body.duplicate-member"));
  }

  @Test
  void aCorrectApi_passesEveryCheckableRule() throws Exception {
    try (FakeApi api = FakeApi.start()) {
      Report report = ConformanceKit.run(KitConfig.from(Fixtures.orders(api)));

      assertAllPassButTheUncheckable(report);
      assertThat(report.summary())
          .isEqualTo((Rules.all().size() - 1) + " passed, 0 failed, 1 not checkable");
      assertThat(report.exitCode()).isZero();
    }
  }

  @Test
  void aCorrectApi_withASetupCallPerIntent_passesOnAnEndpointWithAnId() throws Exception {
    try (FakeApi api = FakeApi.start()) {
      Report report = ConformanceKit.run(KitConfig.from(Fixtures.payments(api)));

      assertAllPassButTheUncheckable(report);
      assertThat(report.exitCode()).isZero();
    }
  }

  @ParameterizedTest
  @EnumSource(Flaw.class)
  void eachFlaw_failsTheRulesItBreaks(Flaw flaw) throws Exception {
    Set<String> broken = BREAKS.get(flaw);
    assertThat(broken).as("rules broken by %s", flaw).isNotNull().isNotEmpty();
    try (FakeApi api = FakeApi.start(flaw)) {
      Target target = new Target(KitConfig.from(Fixtures.orders(api)));

      List<Rule> rules = Rules.all().stream().filter(r -> broken.contains(r.id())).toList();
      assertThat(rules).hasSize(broken.size());
      for (Rule rule : rules) {
        Verdict verdict = rule.judge(target);
        assertThat(verdict.grade()).as("%s against %s", rule.id(), flaw).isEqualTo(Grade.FAIL);
        assertThat(verdict.detail()).as("why %s failed", rule.id()).isNotBlank();
      }
    }
  }

  @Test
  void everyCheckableRule_isBrokenByAtLeastOneFlaw() {
    Set<String> shown =
        BREAKS.values().stream()
            .flatMap(Set::stream)
            .collect(Collectors.toCollection(TreeSet::new));
    Set<String> checkable =
        Rules.all().stream()
            .map(Rule::id)
            .filter(id -> !id.equals(NOT_CHECKABLE))
            .collect(Collectors.toCollection(TreeSet::new));

    assertThat(shown).isEqualTo(checkable);
  }

  @Test
  void withoutASecondCaller_theTenantRuleIsNotCheckable_neverPassed() throws Exception {
    try (FakeApi api = FakeApi.start()) {
      Map<String, String> settings = Fixtures.orders(api);
      settings.remove("tenant-b");
      Rule tenants = rule("tenant.independent");

      Verdict verdict = tenants.judge(new Target(KitConfig.from(settings)));

      assertThat(verdict.grade()).isEqualTo(Grade.NOT_CHECKABLE);
      assertThat(verdict.detail()).contains("tenant-b");
    }
  }

  @Test
  void anApiThatDoesNotAnswer_failsEveryCheckableRule() throws Exception {
    int port;
    try (FakeApi api = FakeApi.start()) {
      port = api.baseUrl().getPort();
    }
    Map<String, String> settings = Fixtures.orders(URI.create("http://127.0.0.1:" + port));
    settings.put("timeout-seconds", "2");

    Report report = ConformanceKit.run(KitConfig.from(settings));

    assertThat(report.count(Grade.PASS)).isZero();
    assertThat(report.count(Grade.FAIL)).isEqualTo(Rules.all().size() - 1);
    assertThat(report.verdict(NOT_CHECKABLE).grade()).isEqualTo(Grade.NOT_CHECKABLE);
    assertThat(report.exitCode()).isEqualTo(1);
  }

  @Test
  void aBodyTemplateThatIsNotAnObject_makesTheBodyRulesNotCheckable() throws Exception {
    try (FakeApi api = FakeApi.start()) {
      Map<String, String> settings = Fixtures.orders(api);
      settings.put("body-template", "[\"{{unique}}\"]");
      Target target = new Target(KitConfig.from(settings));

      Verdict verdict = rule("body.duplicate-member").judge(target);

      assertThat(verdict.grade()).isEqualTo(Grade.NOT_CHECKABLE);
      assertThat(verdict.detail()).contains("not a JSON object");
    }
  }

  static Rule rule(String id) {
    return Rules.all().stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
  }

  private static void assertAllPassButTheUncheckable(Report report) {
    for (Result result : report.results()) {
      Grade expected = result.rule().id().equals(NOT_CHECKABLE) ? Grade.NOT_CHECKABLE : Grade.PASS;
      assertThat(result.verdict().grade()).as(result.line()).isEqualTo(expected);
    }
  }
}
