package com.banhang.idempotency;

/**
 * Thrown by a {@link SideEffects#REMOTE} operation when its side effect may or may not have
 * happened (the gateway timed out, the connection broke after the request was sent).
 *
 * <p>The key then stays in processing, marked as unknown, and every retry is answered 409 with the
 * problem type given here until the application's reconciliation completes or releases it through
 * {@link IdempotencyKeys}. The first attempt is answered 504.
 */
public class OutcomeUnknownException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String problemType;

  /**
   * @param problemType the problem type slug, e.g. {@code payment-outcome-unknown}
   * @param detail what is known, for the client; no secrets
   */
  public OutcomeUnknownException(String problemType, String detail, Throwable cause) {
    super(detail, cause);
    this.problemType = problemType;
  }

  public String problemType() {
    return problemType;
  }
}
