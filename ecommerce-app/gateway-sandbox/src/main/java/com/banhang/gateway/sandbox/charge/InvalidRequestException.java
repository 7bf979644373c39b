package com.banhang.gateway.sandbox.charge;

/**
 * A request the sandbox refuses before doing anything (400): a missing or malformed idempotency
 * key, a body that is not JSON, or a field that breaks its rule.
 */
public class InvalidRequestException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String errorCode;

  /**
   * @param errorCode machine-readable code for the {@code error} member of the answer
   * @param message what is wrong, for a person
   */
  public InvalidRequestException(String errorCode, String message) {
    super(message);
    this.errorCode = errorCode;
  }

  public String errorCode() {
    return errorCode;
  }
}
