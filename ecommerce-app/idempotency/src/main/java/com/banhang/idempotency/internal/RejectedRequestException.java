package com.banhang.idempotency.internal;

/**
 * The request cannot be fingerprinted or is too large: answered with a problem before any claim, so
 * the client may fix it and reuse the key.
 */
public class RejectedRequestException extends Exception {

  private static final long serialVersionUID = 1L;

  private final int status;
  private final String problemType;
  private final String title;

  public RejectedRequestException(int status, String problemType, String title, String detail) {
    super(detail);
    this.status = status;
    this.problemType = problemType;
    this.title = title;
  }

  public int status() {
    return status;
  }

  public String problemType() {
    return problemType;
  }

  public String title() {
    return title;
  }
}
