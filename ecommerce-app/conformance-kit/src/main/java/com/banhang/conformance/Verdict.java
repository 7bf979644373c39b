package com.banhang.conformance;

/**
 * What one rule came to.
 *
 * @param grade passed, failed, or not checkable from outside
 * @param detail why it failed, or why it cannot be checked; empty when it passed
 */
public record Verdict(Grade grade, String detail) {

  /** The three grades a rule can get, as the report spells them. */
  public enum Grade {
    PASS("PASS"),
    FAIL("FAIL"),
    NOT_CHECKABLE("NOT CHECKABLE");

    private final String label;

    Grade(String label) {
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
    return new Verdict(Grade.PASS, "");
  }

  public static Verdict fail(String detail) {
    return new Verdict(Grade.FAIL, detail);
  }

  public static Verdict notCheckable(String reason) {
    return new Verdict(Grade.NOT_CHECKABLE, reason);
  }
}
