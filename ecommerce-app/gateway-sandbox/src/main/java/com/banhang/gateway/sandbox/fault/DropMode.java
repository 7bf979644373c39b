package com.banhang.gateway.sandbox.fault;

/** How a response is lost after its charge was committed. */
public enum DropMode {
  /** Answer 504 with an empty body, as a proxy in front of a slow processor would. */
  GATEWAY_TIMEOUT,
  /** Break the connection in the middle of the response, so the client sees a transport error. */
  RESET
}
