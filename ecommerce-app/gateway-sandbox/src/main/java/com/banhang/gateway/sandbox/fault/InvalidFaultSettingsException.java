package com.banhang.gateway.sandbox.fault;

/** Fault settings outside their allowed ranges (a probability above 1, a negative latency, ...). */
public class InvalidFaultSettingsException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  public InvalidFaultSettingsException(String message) {
    super(message);
  }
}
