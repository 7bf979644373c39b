package com.banhang.gateway.sandbox.webhook;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * Sends one delivery over HTTP. An interface so that the dispatcher's rules (retries, faults,
 * order) can be tested without a network.
 */
@FunctionalInterface
public interface ChargeWebhookTransport {

  /**
   * POSTs {@code body} as JSON with {@code headers} to {@code url}.
   *
   * @return the HTTP status of the answer
   * @throws IOException when no answer came (refused, reset, timed out)
   * @throws InterruptedException when the thread is interrupted while waiting
   */
  int post(URI url, Map<String, String> headers, String body, Duration timeout)
      throws IOException, InterruptedException;
}
