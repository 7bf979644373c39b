package com.banhang.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.banhang.conformance.FakeApi.Flaw;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The JUnit suite form, run through the JUnit Platform as a build would run it: what each rule's
 * dynamic test comes to, and above all that a rule not checkable from outside is aborted with its
 * reason, never passed.
 */
class SuiteFormTest {

  private final Map<String, String> previous = new HashMap<>();

  @AfterEach
  void restoreSystemProperties() {
    previous.forEach(
        (name, value) -> {
          if (value == null) {
            System.clearProperty(name);
          } else {
            System.setProperty(name, value);
          }
        });
  }

  @Test
  void aCorrectApi_everyRulePasses_butTheUncheckableOneIsAbortedWithItsReason() throws Exception {
    try (FakeApi api = FakeApi.start()) {
      configure(Fixtures.orders(api));

      List<Finished> finished = runSuite();

      assertThat(finished).hasSize(Rules.all().size());
      assertThat(finished)
          .filteredOn(f -> f.status() == TestExecutionResult.Status.ABORTED)
          .singleElement()
          .satisfies(
              f -> {
                assertThat(f.name()).startsWith("key.reused-creates-nothing  ");
                assertThat(f.message()).contains("not checkable").contains("not visible over HTTP");
              });
      assertThat(finished)
          .filteredOn(f -> f.status() == TestExecutionResult.Status.SUCCESSFUL)
          .hasSize(Rules.all().size() - 1);
    }
  }

  @Test
  void aBrokenApi_failsTheRulesItBreaks_withTheDetail() throws Exception {
    try (FakeApi api = FakeApi.start(Flaw.NO_EXPIRY_HEADER)) {
      configure(Fixtures.orders(api));

      List<Finished> finished = runSuite();

      assertThat(finished)
          .filteredOn(f -> f.status() == TestExecutionResult.Status.FAILED)
          .singleElement()
          .satisfies(
              f -> {
                assertThat(f.name()).startsWith("expiry.advertised  ");
                assertThat(f.message()).contains("no Idempotency-Key-Expires");
              });
    }
  }

  @Test
  void withoutSettings_theSuiteIsAborted_notPassed() {
    configure(Map.of());
    System.clearProperty("kit.base-url");
    System.clearProperty("kit.config");

    List<Finished> finished = runSuite();

    assertThat(finished)
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.status()).isEqualTo(TestExecutionResult.Status.ABORTED);
              assertThat(f.message()).contains("kit.base-url");
            });
  }

  /** One dynamic test's end: its display name, status and the message of its throwable. */
  record Finished(String name, TestExecutionResult.Status status, String message) {}

  private void configure(Map<String, String> settings) {
    for (String name : KitConfig.SETTINGS.keySet()) {
      previous.putIfAbsent("kit." + name, System.getProperty("kit." + name));
      System.clearProperty("kit." + name);
    }
    settings.forEach((name, value) -> System.setProperty("kit." + name, value));
  }

  private static List<Finished> runSuite() {
    List<Finished> finished = new CopyOnWriteArrayList<>();
    TestExecutionListener listener =
        new TestExecutionListener() {
          @Override
          public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            if (test.isTest()) {
              finished.add(
                  new Finished(
                      test.getDisplayName(),
                      result.getStatus(),
                      result.getThrowable().map(Throwable::getMessage).orElse("")));
            }
          }
        };
    Launcher launcher = LauncherFactory.create();
    launcher.execute(
        LauncherDiscoveryRequestBuilder.request()
            .selectors(selectClass(IdempotencyConformanceIT.class))
            .build(),
        listener);
    return finished;
  }
}
