package com.banhang.shop.payments.infrastructure.gateway;

import com.banhang.shop.payments.api.GatewayReachability;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Probes the processor through {@link GatewayChargesClient}, the Rest Client the charges use, and
 * not through {@link RetryingGatewayClient}: a probe must neither be retried nor count towards the
 * charges' circuit breaker. Any answer means the processor is reachable, except 401 and 403: then
 * it refuses the shop's credentials and every payment would fail too.
 */
@ApplicationScoped
public class RestGatewayReachability implements GatewayReachability {

  /**
   * A gateway key the shop never sends (real ones are {@code banhang_} HMACs, docs/payments.md).
   */
  static final String PROBE_KEY = "health-probe";

  @Inject @RestClient GatewayChargesClient client;

  @Override
  public GatewayProbe probe() {
    try (Response response = client.findByKey(PROBE_KEY)) {
      int status = response.getStatus();
      if (status == 401 || status == 403) {
        return new GatewayProbe(
            false, "the processor refused the shop's credentials (HTTP " + status + ")");
      }
      return new GatewayProbe(true, "HTTP " + status);
    } catch (ProcessingException | IllegalStateException e) {
      Throwable cause = e;
      while (cause.getCause() != null && cause.getCause() != cause) {
        cause = cause.getCause();
      }
      return new GatewayProbe(
          false,
          (hasHandshakeFailure(e)
                  ? "TLS handshake failed (is the processor's certificate trusted? docs/payments.md): "
                  : "unreachable: ")
              + cause.getClass().getSimpleName()
              + ": "
              + cause.getMessage());
    }
  }

  private static boolean hasHandshakeFailure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (RetryingGatewayClient.isTlsHandshakeFailure(t)) {
        return true;
      }
    }
    return false;
  }
}
