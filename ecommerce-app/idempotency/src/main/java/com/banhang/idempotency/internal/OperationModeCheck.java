package com.banhang.idempotency.internal;

import com.banhang.idempotency.Idempotent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.WithAnnotations;
import jakarta.interceptor.Interceptor;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The operations' modes at deployment ({@link DeployedOperationModes}): remembers the operation of
 * every {@link Idempotent} method while CDI discovers the application's classes, then, once the
 * deployment is valid, refuses it when a mode property holds no mode, and logs at SEVERE every
 * operation that is not enforced; it also refuses an {@code idempotency.local-claim} that names no
 * shape. JAX-RS may build its resources later (on the first request); this runs while the
 * application starts.
 */
public class OperationModeCheck implements Extension {

  void discover(@Observes @WithAnnotations(Idempotent.class) ProcessAnnotatedType<?> type) {
    operations(type.getAnnotatedType());
  }

  void checkModes(@Observes AfterDeploymentValidation validation) {
    Config config = ConfigProvider.getConfig(OperationModeCheck.class.getClassLoader());
    check(config, validation);
    checkLocalClaim(config, validation);
  }

  /**
   * Refuses the deployment over an {@code idempotency.local-claim} that names no shape, rather than
   * failing every keyed request of a local operation later.
   */
  static void checkLocalClaim(Config config, AfterDeploymentValidation validation) {
    try {
      IdempotencySettings.claimsInTransaction(
          config
              .getOptionalValue("idempotency.local-claim", String.class)
              .orElse("in-transaction"));
    } catch (IllegalArgumentException invalid) {
      validation.addDeploymentProblem(invalid);
    }
  }

  /** Refuses the deployment over a mode that is not one; else logs those not enforced. */
  static void check(Config config, AfterDeploymentValidation validation) {
    try {
      DeployedOperationModes.announce(config);
    } catch (IllegalStateException invalid) {
      validation.addDeploymentProblem(invalid);
    }
  }

  /** Registers the operations of {@code type}'s {@link Idempotent} class or methods. */
  static void operations(AnnotatedType<?> type) {
    if (type.isAnnotationPresent(Interceptor.class)) {
      return; // The library's own interceptors carry the binding with a placeholder operation.
    }
    Idempotent onClass = type.getAnnotation(Idempotent.class);
    if (onClass != null) {
      DeployedOperationModes.register(onClass.operation());
    }
    for (AnnotatedMethod<?> method : type.getMethods()) {
      Idempotent onMethod = method.getAnnotation(Idempotent.class);
      if (onMethod != null) {
        DeployedOperationModes.register(onMethod.operation());
      }
    }
  }
}
