package com.banhang.idempotency.internal;

/**
 * The request cannot be fingerprinted or is too large: answered with {@link #problem()} before any
 * claim, so the client may fix it and reuse the key.
 */
public class RejectedRequestException extends Exception {

  private static final long serialVersionUID = 1L;

  private final IdempotencyProblem problem;

  public RejectedRequestException(IdempotencyProblem problem, String detail) {
    super(detail);
    this.problem = problem;
  }

  public IdempotencyProblem problem() {
    return problem;
  }
}
