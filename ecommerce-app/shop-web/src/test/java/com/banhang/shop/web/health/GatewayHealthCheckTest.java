package com.banhang.shop.web.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.shop.payments.api.GatewayReachability;
import com.banhang.shop.payments.api.GatewayReachability.GatewayProbe;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gateway's readiness: at most one real probe per interval however often anyone polls, and
 * answers without data (no URL, no exception text) whatever the probe found.
 */
class GatewayHealthCheckTest {

  private final ThreadFactory threads = Thread::new;

  /** A processor stand-in that counts the probes that reached it. */
  private static final class CountingGateway implements GatewayReachability {
    final AtomicInteger probes = new AtomicInteger();
    volatile GatewayProbe answer =
        new GatewayProbe(
            false,
            "TLS handshake failed: SSLHandshakeException: PKIX path building failed for"
                + " https://gateway.internal:8443/");

    @Override
    public GatewayProbe probe() {
      probes.incrementAndGet();
      return answer;
    }
  }

  @BeforeAll
  static void responsesWithoutAServer() {
    HealthCheckResponse.setResponseProvider(IdempotencyEnforcedHealthCheckTest.Builder::new);
  }

  private GatewayHealthCheck check(CountingGateway gateway, Duration interval) {
    GatewayHealthCheck check = new GatewayHealthCheck();
    check.gateway = gateway;
    check.probeInterval = interval;
    check.threads = managed(threads);
    return check;
  }

  /** The container's thread factory is a plain ThreadFactory here. */
  private static ManagedThreadFactory managed(ThreadFactory delegate) {
    return (ManagedThreadFactory)
        Proxy.newProxyInstance(
            GatewayHealthCheckTest.class.getClassLoader(),
            new Class<?>[] {ManagedThreadFactory.class},
            (proxy, method, args) -> {
              try {
                return method.invoke(delegate, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @Test
  void manyPollsWithinTheIntervalProbeTheProcessorOnce() {
    CountingGateway gateway = new CountingGateway();
    GatewayHealthCheck check = check(gateway, Duration.ofMinutes(5));

    for (int i = 0; i < 200; i++) {
      assertThat(check.call().getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
    }

    assertThat(gateway.probes.get()).isEqualTo(1);
  }

  @Test
  void afterTheIntervalTheNextPollProbesAgainAndSeesTheChange() {
    CountingGateway gateway = new CountingGateway();
    GatewayHealthCheck check = check(gateway, Duration.ZERO);

    assertThat(check.call().getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
    gateway.answer = new GatewayProbe(true, "HTTP 404");
    assertThat(check.call().getStatus()).isEqualTo(HealthCheckResponse.Status.UP);

    assertThat(gateway.probes.get()).isEqualTo(2);
  }

  @Test
  void theAnswerCarriesNoDataWhateverTheProbeFound() {
    CountingGateway gateway = new CountingGateway();
    GatewayHealthCheck check = check(gateway, Duration.ZERO);

    HealthCheckResponse down = check.call();
    gateway.answer = new GatewayProbe(true, "HTTP 404 from https://gateway.internal:8443/");
    HealthCheckResponse up = check.call();

    assertThat(down.getName()).isEqualTo("gateway");
    assertThat(down.getData()).isEmpty();
    assertThat(up.getData()).isEmpty();
  }
}
