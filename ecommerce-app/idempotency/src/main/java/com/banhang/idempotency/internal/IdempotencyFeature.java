package com.banhang.idempotency.internal;

import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.ProblemDetails;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.DynamicFeature;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.Method;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Puts an {@link IdempotencyFilter} on every resource method marked {@link Idempotent}, at
 * deployment. A dynamic feature rather than a name binding, because the annotation is also the CDI
 * interceptor binding: a filter class carrying it would have its own methods intercepted.
 *
 * <p>It also applies the operation's comparison-only mode ({@link DeployedOperationModes}): a
 * method of an operation that is {@link OperationMode#OFF} gets no filter at all, so nothing is
 * admitted and the interceptors pass straight through; a mode that is not one refuses the
 * deployment.
 */
@Provider
public class IdempotencyFeature implements DynamicFeature {

  private final Supplier<Config> config;

  public IdempotencyFeature() {
    this(() -> ConfigProvider.getConfig(IdempotencyFeature.class.getClassLoader()));
  }

  /** Over {@code config} (tests). */
  IdempotencyFeature(Supplier<Config> config) {
    this.config = config;
  }

  @Override
  public void configure(ResourceInfo resourceInfo, FeatureContext context) {
    Method method = resourceInfo.getResourceMethod();
    Idempotent policy = method.getAnnotation(Idempotent.class);
    if (policy == null) {
      policy = resourceInfo.getResourceClass().getAnnotation(Idempotent.class);
    }
    if (policy == null) {
      return;
    }
    if (!Response.class.isAssignableFrom(method.getReturnType())) {
      // The interceptor answers with the stored bytes, which only a Response can carry.
      throw new IllegalStateException(
          "@Idempotent method " + method + " must return jakarta.ws.rs.core.Response");
    }
    if (policy.operation().isBlank()) {
      throw new IllegalStateException("@Idempotent method " + method + " names no operation");
    }
    IdempotentEndpoints.register(resourceInfo.getResourceClass());
    Config settings = config.get();
    if (settings.getOptionalValue(ProblemDetails.TYPE_BASE, String.class).isEmpty()) {
      // Every refusal names its problem by a URI of the application's documentation.
      throw new IllegalStateException(
          "set "
              + ProblemDetails.TYPE_BASE
              + " to the URI prefix of your problem documentation (a problem's type is it followed"
              + " by the problem's slug)");
    }
    DeployedOperationModes.register(policy.operation());
    // Throws, naming the property and the allowed values, when the mode is not one.
    OperationMode mode = DeployedOperationModes.mode(settings, policy.operation());
    DeployedOperationModes.announce(
        policy.operation(), mode, DeployedOperationModes.acknowledged(settings));
    if (mode == OperationMode.OFF) {
      return;
    }
    // After authentication and authorization: a replay is served only to a caller allowed now.
    context.register(new IdempotencyFilter(policy, mode), Priorities.USER);
  }
}
