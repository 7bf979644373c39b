package com.banhang.gateway.sandbox.api;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.ext.Provider;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Like a real processor, the sandbox can require the merchant's API key on its merchant API: with
 * {@code sandbox.api-key} set, a request to {@code /v1/charges} or {@code /v1/webhooks} (the events
 * and their replay, which a processor offers only to its merchant) without {@code Authorization:
 * Bearer <that key>} is refused with 401 {@code unauthorized} before anything is read, charged or
 * sent. The test controls ({@code /v1/stats}, {@code /v1/faults}, {@code /v1/faults/webhooks}) stay
 * open: they belong to the tests, not to the shop. Unset (the default), nothing is required.
 */
@Provider
public class ApiKeyCheck implements ContainerRequestFilter {

  static final String API_KEY = "sandbox.api-key";

  @Override
  public void filter(ContainerRequestContext request) {
    Optional<String> required = requiredKey();
    String path = request.getUriInfo().getPath();
    if (required.isEmpty() || !request.getSecurityContext().isSecure() || !isMerchantApi(path)) {
      return;
    }
    String sent = request.getHeaderString(HttpHeaders.AUTHORIZATION);
    byte[] expected = ("Bearer " + required.get()).getBytes(StandardCharsets.UTF_8);
    if (sent == null || !MessageDigest.isEqual(expected, sent.getBytes(StandardCharsets.UTF_8))) {
      request.abortWith(
          ApiError.response(
              401, "unauthorized", "a valid API key (Authorization: Bearer) is required"));
    }
  }

  /**
   * Whether {@code path} (relative to {@code /v1}, with or without a leading slash) is merchant
   * API.
   */
  static boolean isMerchantApi(String path) {
    String relative = path.startsWith("/") ? path.substring(1) : path;
    return relative.startsWith("charges") || relative.startsWith("webhooks");
  }

  private static Optional<String> requiredKey() {
    return ConfigProvider.getConfig(ApiKeyCheck.class.getClassLoader())
        .getOptionalValue(API_KEY, String.class)
        .map(String::trim)
        .filter(key -> !key.isEmpty());
  }
}
