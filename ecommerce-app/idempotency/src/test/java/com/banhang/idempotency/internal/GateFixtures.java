package com.banhang.idempotency.internal;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.MapConfig;
import com.banhang.idempotency.SideEffects;
import com.banhang.idempotency.spi.IdempotencyStore;
import jakarta.enterprise.event.Event;
import jakarta.interceptor.InvocationContext;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Proxy;
import java.security.Principal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;

/**
 * What the gate's tests share, so that each test class states only what it is about: a migrated
 * in-memory H2 store, an {@link Idempotent} policy, the gate's settings, and a fake JAX-RS request.
 */
final class GateFixtures {

  private GateFixtures() {}

  /** A fresh in-memory H2 database named after {@code prefix}, migrated like production's. */
  static JdbcDataSource migratedH2(String prefix) {
    JdbcDataSource dataSource = new JdbcDataSource();
    dataSource.setURL("jdbc:h2:mem:" + prefix + "-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    Flyway.configure()
        .dataSource(dataSource)
        .locations("filesystem:" + System.getProperty("sql.dir", "../../sql") + "/h2")
        .load()
        .migrate();
    return dataSource;
  }

  /** An {@code @Idempotent} on {@code operation}: 24 h, key required, "outcome-unknown". */
  static Idempotent policy(String operation, SideEffects sideEffects) {
    return policy(operation, sideEffects, true, "outcome-unknown");
  }

  /** An {@code @Idempotent} on {@code operation} of 24 h. */
  static Idempotent policy(
      String operation,
      SideEffects sideEffects,
      boolean keyRequired,
      String outcomeUnknownProblem) {
    return new Idempotent() {
      @Override
      public Class<? extends Annotation> annotationType() {
        return Idempotent.class;
      }

      @Override
      public String operation() {
        return operation;
      }

      @Override
      public String ttl() {
        return "PT24H";
      }

      @Override
      public boolean keyRequired() {
        return keyRequired;
      }

      @Override
      public SideEffects sideEffects() {
        return sideEffects;
      }

      @Override
      public String outcomeUnknownProblem() {
        return outcomeUnknownProblem;
      }
    };
  }

  /**
   * Settings over {@code config}: a 30 s lease, no in-progress wait, Retry-After 1, and the body
   * limits {@code idempotency.max-body-bytes} (default 65536) and {@code
   * idempotency.max-json-depth} (default 32) read from {@code config}.
   */
  static IdempotencySettings settings(Map<String, String> config, List<String> storedHeaders) {
    IdempotencySettings settings = new IdempotencySettings();
    settings.config = new MapConfig(config);
    settings.lease = Duration.ofSeconds(30);
    settings.maxBodyBytes =
        Integer.parseInt(config.getOrDefault("idempotency.max-body-bytes", "65536"));
    settings.maxJsonDepth =
        Integer.parseInt(config.getOrDefault("idempotency.max-json-depth", "32"));
    settings.inProgressWait = Duration.ZERO;
    settings.retryAfterSeconds = 1;
    settings.storedHeaders = storedHeaders;
    return settings;
  }

  /** A gate over {@code store} with {@code settings}, its problems, and a fresh request state. */
  static IdempotencyGate gate(
      IdempotencySettings settings, IdempotencyStore store, Event<IdempotencyEvent> events) {
    IdempotencyProblems problems = new IdempotencyProblems();
    problems.settings = settings;
    IdempotencyGate gate = new IdempotencyGate();
    gate.admission = new Admission();
    gate.duplicates = new DuplicateAnswers();
    gate.settlement = new Settlement();
    gate.settings = gate.admission.settings = gate.duplicates.settings = settings;
    gate.settlement.settings = settings;
    gate.problems = gate.admission.problems = gate.duplicates.problems = problems;
    gate.settlement.problems = problems;
    gate.events = gate.admission.events = gate.duplicates.events = events;
    gate.settlement.events = events;
    store(gate, store);
    lifecycle(gate, new RequestLifecycle());
    return gate;
  }

  /** Gives the gate and the phases it calls {@code store}, as CDI would inject one store. */
  static void store(IdempotencyGate gate, IdempotencyStore store) {
    gate.store = gate.admission.store = gate.duplicates.store = gate.settlement.store = store;
  }

  /** Starts a new request on the gate: {@code lifecycle} is that request's lifecycle everywhere. */
  static void lifecycle(IdempotencyGate gate, RequestLifecycle lifecycle) {
    gate.lifecycle = lifecycle;
    gate.admission.lifecycle = lifecycle;
    gate.duplicates.lifecycle = lifecycle;
    gate.settlement.lifecycle = lifecycle;
  }

  /** An invocation of a method that returns {@code result}, as an interceptor sees it. */
  static InvocationContext returning(Object result) {
    return (InvocationContext)
        Proxy.newProxyInstance(
            GateFixtures.class.getClassLoader(),
            new Class<?>[] {InvocationContext.class},
            (proxy, method, args) -> method.getName().equals("proceed") ? result : null);
  }

  /** An {@link Event} that hands every fired event to {@code fired}. */
  @SuppressWarnings("unchecked")
  static <E> Event<E> events(Consumer<? super E> fired) {
    return (Event<E>)
        Proxy.newProxyInstance(
            GateFixtures.class.getClassLoader(),
            new Class<?>[] {Event.class},
            (proxy, method, args) -> {
              if (method.getName().equals("fire")) {
                fired.accept((E) args[0]);
              }
              return null;
            });
  }

  /**
   * A request's context: the {@code Idempotency-Key} header (unless null), the caller (none when
   * null), no path parameters, a body of unknown length, and the response the gate aborts with.
   */
  static final class FakeRequest {
    final MultivaluedHashMap<String, String> headers = new MultivaluedHashMap<>();
    final String user;
    InputStream body;
    Response aborted;

    FakeRequest(String user, String key, String body) {
      this.user = user;
      if (key != null) {
        headers.putSingle(IdempotencyGate.KEY_HEADER, key);
      }
      this.body = new ByteArrayInputStream(body.getBytes(UTF_8));
    }

    ContainerRequestContext context() {
      SecurityContext security =
          (SecurityContext)
              Proxy.newProxyInstance(
                  GateFixtures.class.getClassLoader(),
                  new Class<?>[] {SecurityContext.class},
                  (p, m, a) ->
                      m.getName().equals("getUserPrincipal") && user != null
                          ? (Principal) () -> user
                          : null);
      UriInfo uri =
          (UriInfo)
              Proxy.newProxyInstance(
                  GateFixtures.class.getClassLoader(),
                  new Class<?>[] {UriInfo.class},
                  (p, m, a) -> new MultivaluedHashMap<String, String>());
      return (ContainerRequestContext)
          Proxy.newProxyInstance(
              GateFixtures.class.getClassLoader(),
              new Class<?>[] {ContainerRequestContext.class},
              (p, m, a) ->
                  switch (m.getName()) {
                    case "getHeaders" -> headers;
                    case "getSecurityContext" -> security;
                    case "getUriInfo" -> uri;
                    case "getLength" -> -1;
                    case "getEntityStream" -> body;
                    case "setEntityStream" -> {
                      body = (InputStream) a[0];
                      yield null;
                    }
                    case "abortWith" -> {
                      aborted = (Response) a[0];
                      yield null;
                    }
                    default -> null;
                  });
    }
  }
}
