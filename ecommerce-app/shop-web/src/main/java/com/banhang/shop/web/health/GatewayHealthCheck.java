package com.banhang.shop.web.health;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness: the payment gateway answers HTTP at {@code gateway/mp-rest/url}. Any status counts
 * (the probe looks up a key that was never used, which charges nothing); only no answer within the
 * timeout, a refused connection or a broken exchange is DOWN. Payments cannot be taken without the
 * gateway, and the retries of a payment would then end with unknown outcomes.
 */
@Readiness
@ApplicationScoped
public class GatewayHealthCheck implements HealthCheck {

  static final String NAME = "gateway";
  static final String PROBE_PATH = "/v1/charges?idempotencyKey=health-probe";

  @Inject
  @ConfigProperty(name = "gateway/mp-rest/url")
  Optional<String> configuredUrl; // no default: DeploymentChecks refuses to start without it

  @Resource(lookup = "java:comp/DefaultManagedExecutorService")
  ManagedExecutorService executor;

  private final BoundedCheck bounded = new BoundedCheck(NAME, Duration.ofSeconds(3));
  private final HttpClient client =
      HttpClient.newBuilder()
          // HTTP/1.1 like the Rest Client: the default HTTP/2 upgrade attempt on a plain-HTTP
          // Liberty endpoint got no answer within the timeout.
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(1))
          .followRedirects(HttpClient.Redirect.NEVER)
          .build();

  @Override
  public HealthCheckResponse call() {
    return bounded.run(executor, this::probe);
  }

  private HealthCheckResponse probe() throws Exception {
    if (configuredUrl.isEmpty()) {
      return HealthCheckResponse.named(NAME).down().withData("error", "no gateway URL").build();
    }
    String gatewayUrl = configuredUrl.get();
    String base =
        gatewayUrl.endsWith("/") ? gatewayUrl.substring(0, gatewayUrl.length() - 1) : gatewayUrl;
    long started = System.nanoTime();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(base + PROBE_PATH))
            .timeout(Duration.ofSeconds(2))
            .GET()
            .build();
    try {
      HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
      return HealthCheckResponse.named(NAME)
          .up()
          .withData("url", gatewayUrl)
          .withData("status", response.statusCode())
          .withData("millis", (System.nanoTime() - started) / 1_000_000)
          .build();
    } catch (java.io.IOException e) {
      return HealthCheckResponse.named(NAME)
          .down()
          .withData("url", gatewayUrl)
          .withData("error", e.getClass().getSimpleName() + ": " + e.getMessage())
          .build();
    }
  }
}
