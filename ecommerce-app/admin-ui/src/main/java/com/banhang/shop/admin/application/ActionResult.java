package com.banhang.shop.admin.application;

/**
 * What an operator action did, shown at once and written to the audit.
 *
 * @param proposalId the override proposal the action made (status {@link Status#PROPOSED}), else
 *     null
 */
public record ActionResult(Status status, String message, Long proposalId) {

  public ActionResult(Status status, String message) {
    this(status, message, null);
  }

  public enum Status {
    /** The action changed what it said it would. */
    DONE,
    /** Refused; nothing changed (a missing reason, a mismatching charge, a key not stuck). */
    REFUSED,
    /**
     * Nothing changed yet: the gateway no longer knows the charge; the operator may repeat the
     * action with an explicit override, which the audit records as such.
     */
    CONFIRMATION_NEEDED,
    /**
     * Nothing changed yet: an override was proposed and takes effect only when a different operator
     * approves it (docs/operations.md).
     */
    PROPOSED,
    /** Could not be done now (the gateway unreachable, a database error); nothing changed. */
    FAILED
  }

  public static ActionResult done(String message) {
    return new ActionResult(Status.DONE, message);
  }

  public static ActionResult refused(String message) {
    return new ActionResult(Status.REFUSED, message);
  }

  public boolean succeeded() {
    return status == Status.DONE;
  }
}
