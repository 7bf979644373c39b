package com.banhang.conformance;

/**
 * One rule of the kit (docs/conformance-kit.md).
 *
 * @param id stable, dotted: what a build or a person refers to
 * @param text what the API must do, in a few words
 * @param source where the rule comes from: a section of the IETF draft
 *     draft-ietf-httpapi-idempotency-key-header, of docs/contract.md, or a public RFC
 * @param check the HTTP exchanges that judge it
 */
public record Rule(String id, String text, String source, Check check) {

  /** Judges the rule against a target; an exception is a failure of the rule. */
  @FunctionalInterface
  public interface Check {
    Verdict run(Target target) throws Exception;
  }

  /**
   * Thrown by a check that has found its verdict part way through: a failed precondition, or
   * something that makes the rule not checkable against this target.
   */
  public static final class Stop extends RuntimeException {
    private final transient Verdict verdict;

    public Stop(Verdict verdict) {
      super(verdict.detail(), null, false, false);
      this.verdict = verdict;
    }

    public Verdict verdict() {
      return verdict;
    }
  }

  /** Runs the check; an exception (no answer, a timeout) fails the rule with its message. */
  public Verdict judge(Target target) {
    try {
      return check.run(target);
    } catch (Stop stop) {
      return stop.verdict();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Verdict.fail("interrupted");
    } catch (Exception e) {
      return Verdict.fail("no usable answer: " + describe(e));
    }
  }

  /** The exception and its causes, for a report line: a connect failure often has no message. */
  static String describe(Throwable e) {
    StringBuilder text = new StringBuilder(e.toString());
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      text.append(" (caused by ").append(cause).append(')');
    }
    return text.toString();
  }
}
