package com.banhang.conformance;

/**
 * What one rule came to.
 *
 * @param outcome passed, failed, or not checkable from outside
 * @param detail why it failed, or why it cannot be checked; empty when it passed
 */
public record Verdict(Outcome outcome, String detail) {

  /** The three outcomes, as the report spells them. */
  public enum Outcome {
    PASS("PASS"),
    FAIL("FAIL"),
    NOT_CHECKABLE("NOT CHECKABLE");

    private final String label;

    Outcome(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  public Verdict {
    detail = detail == null ? "" : detail.replaceAll("[\\r\\n]+", " ");
  }

  public static Verdict pass() {
    return new Verdict(Outcome.PASS, "");
  }

  public static Verdict fail(String detail) {
    return new Verdict(Outcome.FAIL, detail);
  }

  public static Verdict notCheckable(String reason) {
    return new Verdict(Outcome.NOT_CHECKABLE, reason);
  }
}
