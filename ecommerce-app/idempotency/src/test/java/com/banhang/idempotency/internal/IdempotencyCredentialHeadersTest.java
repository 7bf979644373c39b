package com.banhang.idempotency.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.internal.GateFixtures.FakeRequest;
import com.banhang.idempotency.jdbc.JdbcIdempotencyStore;
import com.banhang.idempotency.jdbc.ResponseBodyCipher;
import jakarta.interceptor.InvocationContext;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * docs/security.md, threat 10: a response that carries Set-Cookie, Authorization,
 * Proxy-Authorization, WWW-Authenticate and a token header is neither stored nor replayed. A real
 * {@link Idempotent} JAX-RS resource method returns them; it runs through the gate (request filter,
 * response filter) and the interceptor over an H2 store, with {@code idempotency.stored-headers}
 * naming every one of them, as a careless operator might configure it: the fixed denylist must
 * still win. The first answer may carry them; the stored row and the replay must not. Both ways a
 * response is stored are covered: a success completed by the interceptor, and a business rejection
 * (4xx) stored by the response filter.
 */
class IdempotencyCredentialHeadersTest {

  private static final List<String> CREDENTIALS =
      List.of(
          "Set-Cookie", "Authorization", "Proxy-Authorization", "WWW-Authenticate", "X-Api-Token");

  private JdbcDataSource dataSource;
  private IdempotencyGate gate;
  private IdempotencyFilter.InTransactionInterceptor interceptor;
  private final List<IdempotencyEvent> events = new ArrayList<>();

  /** The application's resource: each method answers with credentials in its headers. */
  @Path("/widgets")
  public static class WidgetResource {

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    @Idempotent(operation = "widgets.create")
    public Response create() {
      return withCredentials(Response.status(201).entity("{\"id\":\"w-1\"}"))
          .header("Location", "/widgets/w-1")
          .type(MediaType.APPLICATION_JSON_TYPE)
          .build();
    }

    @POST
    @Path("/taken")
    @Produces(MediaType.APPLICATION_JSON)
    @Idempotent(operation = "widgets.take")
    public Response take() {
      return withCredentials(Response.status(409).entity("{\"type\":\"x#widget-taken\"}"))
          .type("application/problem+json")
          .build();
    }

    private static Response.ResponseBuilder withCredentials(Response.ResponseBuilder builder) {
      return builder
          .header("Set-Cookie", "SESSION=s3cr3t-session; HttpOnly")
          .header("Authorization", "Bearer s3cr3t-authorization")
          .header("Proxy-Authorization", "Basic s3cr3t-proxy")
          .header("WWW-Authenticate", "Bearer realm=\"s3cr3t-realm\"")
          .header("X-Api-Token", "s3cr3t-api-token");
    }
  }

  @BeforeEach
  void gateOverH2() {
    dataSource = GateFixtures.migratedH2("credentials");
    // Misconfigured on purpose: every credential header is on the allowlist.
    List<String> stored = new ArrayList<>(List.of("Location", "Content-Type"));
    stored.addAll(CREDENTIALS);
    IdempotencySettings settings = GateFixtures.settings(new HashMap<>(), stored);
    gate =
        GateFixtures.gate(
            settings,
            JdbcIdempotencyStore.forDataSource(dataSource)
                .encryptingBodiesWith(ResponseBodyCipher.NONE),
            GateFixtures.events(events::add));

    interceptor = new IdempotencyFilter.InTransactionInterceptor();
    interceptor.gate = gate;
  }

  @ParameterizedTest
  @ValueSource(strings = {"create", "take"})
  void credentialHeaders_maySitOnTheFirstAnswer_butAreNeitherStoredNorReplayed(String methodName)
      throws Exception {
    Method method = WidgetResource.class.getMethod(methodName);
    Idempotent policy = method.getAnnotation(Idempotent.class);
    String key = "key-" + UUID.randomUUID();

    Exchange first = exchange(policy, method, key);
    assertThat(first.aborted).as("the first attempt runs the method").isNull();
    int status = methodName.equals("create") ? 201 : 409;
    assertThat(first.status).isEqualTo(status);

    String storedHeaders = storedHeaders(policy.operation(), key);
    assertThat(storedHeaders).as("the row's stored headers").isNotNull();
    for (String name : CREDENTIALS) {
      assertThat(storedHeaders).as("stored headers").doesNotContainIgnoringCase(name);
    }
    assertThat(storedHeaders).doesNotContain("s3cr3t");
    assertThat(storedHeaders).containsIgnoringCase("Content-Type");

    Exchange replay = exchange(policy, method, key);
    assertThat(replay.aborted).as("the retry is served from the store").isNotNull();
    assertThat(replay.aborted.getStatus()).isEqualTo(status);
    assertThat(replay.aborted.getHeaderString(IdempotencyGate.REPLAYED_HEADER)).isEqualTo("true");
    for (String name : CREDENTIALS) {
      assertThat(replay.aborted.getHeaderString(name)).as("replayed %s", name).isNull();
    }
    assertThat(replay.aborted.getStringHeaders().toString()).doesNotContain("s3cr3t");
    if (methodName.equals("create")) {
      assertThat(replay.aborted.getHeaderString("Location")).isEqualTo("/widgets/w-1");
    }
    assertThat(replay.methodCalls).isZero();
  }

  // ------------------------------------------------------------------ one request through it all

  private static final class Exchange {
    Response aborted;
    int status;
    int methodCalls;
    MultivaluedMap<String, Object> sentHeaders;
  }

  /**
   * Request filter, claim, then (unless either answered) interceptor and method, then response
   * filter.
   */
  private Exchange exchange(Idempotent policy, Method method, String key) throws Exception {
    Exchange exchange = new Exchange();
    RequestLifecycle state = new RequestLifecycle();
    GateFixtures.lifecycle(gate, state);
    FakeRequest fake = new FakeRequest("carol", key, "{\"name\":\"w\"}");
    ContainerRequestContext request = fake.context();
    gate.admit(policy, request);
    exchange.aborted = fake.aborted;
    if (exchange.aborted == null) {
      // Admitted by the filter: the claim interceptor claims when the method is invoked.
      exchange.aborted = gate.claimOnItsOwn();
    }
    if (exchange.aborted != null) {
      return exchange;
    }

    WidgetResource resource = new WidgetResource();
    Object result =
        interceptor.executeInTransaction(
            proxy(
                InvocationContext.class,
                (name, args) ->
                    switch (name) {
                      case "proceed" -> {
                        exchange.methodCalls++;
                        yield method.invoke(resource);
                      }
                      case "getMethod" -> method;
                      case "getTarget" -> resource;
                      case "getParameters" -> new Object[0];
                      case "getContextData" -> new HashMap<String, Object>();
                      default -> null;
                    }));
    Response response = (Response) result;
    // What the JAX-RS runtime hands the response filter: the method's headers and entity.
    MultivaluedMap<String, Object> sent = new MultivaluedHashMap<>();
    response.getHeaders().forEach((name, values) -> sent.addAll(name, values));
    int[] status = {response.getStatus()};
    Object[] entity = {response.getEntity()};
    ContainerResponseContext context =
        proxy(
            ContainerResponseContext.class,
            (name, args) ->
                switch (name) {
                  case "getStatus" -> status[0];
                  case "setStatus" -> {
                    status[0] = (Integer) args[0];
                    yield null;
                  }
                  case "getHeaders" -> sent;
                  case "getEntity" -> entity[0];
                  case "setEntity" -> {
                    entity[0] = args[0];
                    yield null;
                  }
                  case "getMediaType" -> response.getMediaType();
                  default -> null;
                });
    gate.settle(request, context);
    exchange.status = status[0];
    exchange.sentHeaders = sent;
    return exchange;
  }

  private String storedHeaders(String operation, String key) throws Exception {
    try (Connection c = dataSource.getConnection();
        PreparedStatement statement =
            c.prepareStatement(
                "SELECT status, response_headers FROM idempotency_record"
                    + " WHERE tenant_id = 'carol' AND operation = ? AND idempotency_key = ?")) {
      statement.setString(1, operation);
      statement.setString(2, key);
      try (ResultSet rs = statement.executeQuery()) {
        assertThat(rs.next()).as("a row for the key").isTrue();
        assertThat(rs.getString(1)).isEqualTo("COMPLETED");
        return rs.getString(2);
      }
    }
  }

  // ------------------------------------------------------------------ plumbing

  private interface Handler {
    Object handle(String method, Object[] args) throws Exception;
  }

  @SuppressWarnings("unchecked")
  private static <T> T proxy(Class<T> type, Handler handler) {
    return (T)
        Proxy.newProxyInstance(
            IdempotencyCredentialHeadersTest.class.getClassLoader(),
            new Class<?>[] {type},
            (p, m, a) -> {
              try {
                return handler.handle(m.getName(), a);
              } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  private static void inject(Object target, String field, Object value) {
    try {
      var f = target.getClass().getDeclaredField(field);
      f.setAccessible(true);
      f.set(target, value);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }
}
