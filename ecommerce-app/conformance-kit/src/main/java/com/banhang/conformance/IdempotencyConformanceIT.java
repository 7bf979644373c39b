package com.banhang.conformance;

import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The kit as a JUnit 5 suite: one dynamic test per rule, named by its id, against the API that the
 * system properties {@code kit.base-url}, {@code kit.endpoint}, {@code kit.body-template}, {@code
 * kit.tenant-a} and the others of {@link KitConfig} (or a file named by {@code kit.config}) point
 * at. A module runs it from this JAR with failsafe's {@code dependenciesToScan}.
 *
 * <p>A rule that failed fails its test with the detail; a rule that is not checkable from outside
 * is aborted with the reason (a build reports it as skipped), never passed. Without {@code
 * kit.base-url} every test is aborted: there is nothing to check.
 */
public class IdempotencyConformanceIT {

  @TestFactory
  Stream<DynamicTest> rules() throws Exception {
    if (!KitConfig.configuredBySystemProperties()) {
      return Stream.of(
          DynamicTest.dynamicTest(
              "conformance kit",
              () -> Assumptions.abort("no kit.base-url or kit.config: no API to check")));
    }
    KitConfig config = KitConfig.fromSystemProperties();
    Target target = new Target(config);
    return Rules.all().stream()
        .map(
            rule ->
                DynamicTest.dynamicTest(
                    rule.id() + "  " + rule.text() + "  (" + rule.source() + ")",
                    () -> judge(rule, target)));
  }

  /** What a rule's verdict is as a test result. */
  static void judge(Rule rule, Target target) {
    Verdict verdict = rule.judge(target);
    switch (verdict.grade()) {
      case PASS -> {}
      case FAIL -> Assertions.fail(rule.id() + ": " + verdict.detail());
      case NOT_CHECKABLE -> Assumptions.abort("not checkable from outside: " + verdict.detail());
    }
  }
}
