package com.banhang.shop.web.health;

import com.banhang.shop.payments.api.GatewayReachability;
import com.banhang.shop.payments.api.GatewayReachability.GatewayProbe;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness: the payment processor answers over the connection the payments use ({@link
 * GatewayReachability}: the same Rest Client, so the same URL, TLS trust and credentials; a probe
 * with trust of its own once said UP while every payment failed its handshake). Payments cannot be
 * taken without the processor.
 *
 * <p>At most one real probe per {@code shop.health.gateway.probe-interval} (default 15 s): every
 * poll in between answers the last probe's status, so health polls, anonymous and as frequent as
 * anyone likes, cannot load the processor. The answer carries no data; why it is DOWN (the URL, the
 * TLS error) goes to the log (docs/observability.md).
 */
@Readiness
@ApplicationScoped
public class GatewayHealthCheck implements HealthCheck {

  static final String NAME = "gateway";

  @Inject GatewayReachability gateway;

  @Inject
  @ConfigProperty(name = "shop.health.gateway.probe-interval", defaultValue = "PT15S")
  Duration probeInterval;

  @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
  ManagedThreadFactory threads;

  private final BoundedCheck bounded = new BoundedCheck(NAME, Duration.ofSeconds(5));
  private HealthCheckResponse last;
  private long lastAtNanos;

  @Override
  public synchronized HealthCheckResponse call() {
    long now = System.nanoTime();
    if (last != null && now - lastAtNanos < probeInterval.toNanos()) {
      return last;
    }
    last = bounded.run(threads, this::probe);
    lastAtNanos = System.nanoTime();
    return last;
  }

  private HealthCheckResponse probe() {
    GatewayProbe probe = gateway.probe();
    return probe.reachable()
        ? bounded.up(probe.detail())
        : bounded.down("the payment gateway is not reachable: " + probe.detail());
  }
}
