package com.banhang.idempotency.internal;

import com.banhang.idempotency.Idempotent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.WithAnnotations;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers, while CDI discovers the application's classes, which resource methods are {@link
 * Idempotent}, with their HTTP method and path template relative to the application, so that {@link
 * IdempotencyOpenApiFilter} can document their 429 without the library knowing the application's
 * endpoints.
 */
public class IdempotentEndpoints implements Extension {

  /** One idempotent resource method: {@code POST} and {@code /v1/orders/{orderId}/payments}. */
  public record Endpoint(String httpMethod, String pathTemplate) {}

  private static final Set<Endpoint> ENDPOINTS = ConcurrentHashMap.newKeySet();

  void discover(@Observes @WithAnnotations(Idempotent.class) ProcessAnnotatedType<?> type) {
    register(type.getAnnotatedType().getJavaClass());
  }

  /** Records the idempotent resource methods of {@code resource}. */
  static void register(Class<?> resource) {
    Path classPath = resource.getAnnotation(Path.class);
    boolean classIdempotent = resource.isAnnotationPresent(Idempotent.class);
    for (Method method : resource.getMethods()) {
      if (!classIdempotent && !method.isAnnotationPresent(Idempotent.class)) {
        continue;
      }
      String verb = httpMethod(method);
      if (verb == null) {
        continue;
      }
      Path methodPath = method.getAnnotation(Path.class);
      ENDPOINTS.add(
          new Endpoint(
              verb,
              template(
                  (classPath == null ? "" : classPath.value())
                      + "/"
                      + (methodPath == null ? "" : methodPath.value()))));
    }
  }

  /** The idempotent endpoints discovered so far. */
  public static Set<Endpoint> endpoints() {
    return Set.copyOf(ENDPOINTS);
  }

  private static String httpMethod(Method method) {
    for (Annotation annotation : method.getAnnotations()) {
      HttpMethod verb = annotation.annotationType().getAnnotation(HttpMethod.class);
      if (verb != null) {
        return verb.value().toUpperCase(Locale.ROOT);
      }
    }
    return null;
  }

  /** {@code v1/orders//{id: [0-9]+}/} to {@code /v1/orders/{id}}. */
  static String template(String path) {
    String withoutRegex = path.replaceAll("\\{\\s*([^}:\\s]+)\\s*:[^}]*}", "{$1}");
    String joined = ("/" + withoutRegex).replaceAll("/+", "/");
    return joined.length() > 1 && joined.endsWith("/")
        ? joined.substring(0, joined.length() - 1)
        : joined;
  }
}
