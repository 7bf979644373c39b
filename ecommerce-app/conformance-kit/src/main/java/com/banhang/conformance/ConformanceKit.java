package com.banhang.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Runs every rule against one target, one after the other, and keeps what each came to. */
public final class ConformanceKit {

  /** One rule and its verdict. */
  public record Result(Rule rule, Verdict verdict) {

    /** {@code PASS|FAIL|NOT CHECKABLE <id> <text> (<source>) <detail>} */
    public String line() {
      String line =
          verdict.grade().label()
              + "  "
              + rule.id()
              + "  "
              + rule.text()
              + "  ("
              + rule.source()
              + ")";
      return verdict.detail().isEmpty() ? line : line + "  " + verdict.detail();
    }
  }

  /** Every result, in the order of {@link Rules#all()}. */
  public record Report(List<Result> results) {

    public Report {
      results = List.copyOf(results);
    }

    public long count(Verdict.Grade grade) {
      return results.stream().filter(r -> r.verdict().grade() == grade).count();
    }

    /** {@code N passed, M failed, K not checkable} */
    public String summary() {
      return count(Verdict.Grade.PASS)
          + " passed, "
          + count(Verdict.Grade.FAIL)
          + " failed, "
          + count(Verdict.Grade.NOT_CHECKABLE)
          + " not checkable";
    }

    /** 0 only when no rule failed. */
    public int exitCode() {
      return count(Verdict.Grade.FAIL) == 0 ? 0 : 1;
    }

    public Verdict verdict(String ruleId) {
      return results.stream()
          .filter(r -> r.rule().id().equals(ruleId))
          .findFirst()
          .orElseThrow(() -> new IllegalArgumentException("no rule " + ruleId))
          .verdict();
    }
  }

  private ConformanceKit() {}

  /** Runs every rule; {@code each} sees each result as soon as it is known. */
  public static Report run(KitConfig config, Consumer<Result> each) {
    Target target = new Target(config);
    List<Result> results = new ArrayList<>();
    for (Rule rule : Rules.all()) {
      Result result = new Result(rule, rule.judge(target));
      each.accept(result);
      results.add(result);
    }
    return new Report(results);
  }

  public static Report run(KitConfig config) {
    return run(config, r -> {});
  }
}
