package com.banhang.gateway.sandbox.webhook;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * Deliveries with the JDK's HTTP client: HTTP/1.1 (what any shop endpoint speaks), no redirects
 * followed (a processor posts to the configured URL only), the answer's body read and dropped.
 */
public final class JdkWebhookTransport implements ChargeWebhookTransport {

  private final HttpClient client;

  /**
   * @param connectTimeout how long a connection may take to open
   */
  public JdkWebhookTransport(Duration connectTimeout) {
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(connectTimeout)
            .build();
  }

  @Override
  public int post(URI url, Map<String, String> headers, String body, Duration timeout)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(url)
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .header("User-Agent", "banhang-gateway-sandbox-webhooks")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(request::header);
    return client.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}
