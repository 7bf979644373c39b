package com.banhang.shop.web.health;

import com.banhang.idempotency.OperationModes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness: every idempotent operation is enforced. A comparison-only mode ({@code
 * idempotency.operations.<operation>.mode}, docs/configuration.md, "Operation modes") lets keys
 * stop protecting an operation, for side-by-side measurements only. A node running like that is
 * DOWN, so no load balancer sends it real traffic by mistake, unless {@value
 * OperationModes#ACKNOWLEDGED} is true; then it is UP. Either way the log names each operation that
 * is not enforced with its mode, once per change of status; the answer itself says UP or DOWN only,
 * as every check's (anonymous callers read it; docs/observability.md).
 */
@Readiness
@ApplicationScoped
public class IdempotencyEnforcedHealthCheck implements HealthCheck {

  static final String NAME = "idempotency-enforced";

  @Inject Config config;

  private final BoundedCheck report = new BoundedCheck(NAME, java.time.Duration.ofSeconds(1));

  @Override
  public HealthCheckResponse call() {
    Map<String, String> notEnforced;
    try {
      notEnforced = OperationModes.notEnforced(config);
    } catch (IllegalStateException wrongMode) {
      // The deployment refuses such a value; this is only reached if it changed since.
      return report.down(wrongMode.getMessage());
    }
    if (notEnforced.isEmpty()) {
      return report.up("every idempotent operation is enforced");
    }
    String modes = "not enforced: " + notEnforced;
    return OperationModes.acknowledged(config)
        ? report.up(modes + " (comparison-only, acknowledged)")
        : report.down(modes + " (comparison-only, not acknowledged)");
  }
}
