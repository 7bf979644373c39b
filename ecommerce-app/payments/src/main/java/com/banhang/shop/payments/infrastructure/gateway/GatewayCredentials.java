package com.banhang.shop.payments.infrastructure.gateway;

import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Sends the shop's API key to the processor on every call, charges, lookups and the readiness probe
 * alike: {@code Authorization: Bearer <payments.gateway.api-key>} (environment variable {@code
 * PAYMENTS_GATEWAY_API_KEY}, docs/configuration.md). Without a key nothing is added (the
 * development sandbox asks for none). The key is never logged: it is not part of any message the
 * gateway classes write.
 */
public class GatewayCredentials implements ClientRequestFilter {

  static final String API_KEY = "payments.gateway.api-key";

  @Override
  public void filter(ClientRequestContext request) {
    apiKey()
        .ifPresent(
            key -> request.getHeaders().putSingle(HttpHeaders.AUTHORIZATION, "Bearer " + key));
  }

  /** Read on every call, so that a rotated key (a changed environment) needs no redeploy. */
  static Optional<String> apiKey() {
    return ConfigProvider.getConfig(GatewayCredentials.class.getClassLoader())
        .getOptionalValue(API_KEY, String.class)
        .map(String::trim)
        .filter(key -> !key.isEmpty());
  }
}
