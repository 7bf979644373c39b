package com.banhang.idempotency.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.idempotency.Idempotent;
import com.banhang.idempotency.MapConfig;
import com.banhang.idempotency.ProblemDetails;
import com.banhang.idempotency.SideEffects;
import com.banhang.idempotency.internal.GateFixtures.FakeRequest;
import com.banhang.idempotency.internal.RequestLifecycle.Phase;
import com.banhang.idempotency.jdbc.JdbcIdempotencyStore;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.FeatureContext;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The operations' modes, {@code idempotency.operations.<operation>.mode}: enforced (the default) is
 * today's behaviour; optional lets a request without a key run unprotected and handles a keyed one
 * as usual; off ignores the key. A value that is no mode refuses the deployment, and every
 * operation not enforced is logged at SEVERE with whether it was acknowledged. The filter runs over
 * the real gate and an in-memory H2 store, so "nothing was written" is checked in the table.
 */
class OperationModeTest {

  private static final String KEY =
      Base64.getEncoder().encodeToString("0123456789abcdef0123456789abcdef".getBytes(UTF_8));

  /** Operations are remembered for the whole JVM, so every test names its own. */
  private final String operation = "widgets-" + UUID.randomUUID() + ".create";

  private final Map<String, String> config =
      new HashMap<>(Map.of(ProblemDetails.TYPE_BASE, "urn:example:problems:"));
  private final List<LogRecord> logged = new ArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          logged.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };
  private JdbcDataSource dataSource;
  private IdempotencyGate gate;

  @BeforeEach
  void setUp() {
    dataSource = GateFixtures.migratedH2("switch");
    gate =
        GateFixtures.gate(
            GateFixtures.settings(config, List.of("Location", "Content-Type")),
            JdbcIdempotencyStore.forDataSource(dataSource),
            GateFixtures.events(event -> {}));
    Logger.getLogger(DeployedOperationModes.class.getName()).addHandler(capture);
  }

  @AfterEach
  void tearDown() {
    Logger.getLogger(DeployedOperationModes.class.getName()).removeHandler(capture);
  }

  // --- Reading the mode ---

  @Test
  void anUnsetModeIsEnforced_andValuesIgnoreCaseAndBlanks() {
    assertThat(DeployedOperationModes.mode(new MapConfig(config), operation))
        .isEqualTo(OperationMode.ENFORCED);

    for (var entry :
        Map.of(
                "enforced", OperationMode.ENFORCED,
                " Optional ", OperationMode.OPTIONAL,
                "OFF", OperationMode.OFF)
            .entrySet()) {
      config.put(DeployedOperationModes.property(operation), entry.getKey());
      assertThat(DeployedOperationModes.mode(new MapConfig(config), operation))
          .as(entry.getKey())
          .isEqualTo(entry.getValue());
    }
  }

  @Test
  void aValueThatIsNoMode_isRefusedNamingThePropertyAndTheAllowedValues() {
    config.put("idempotency.operations." + operation + ".mode", "disabled");

    assertThatThrownBy(() -> DeployedOperationModes.mode(new MapConfig(config), operation))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("idempotency.operations." + operation + ".mode")
        .hasMessageContaining("disabled")
        .hasMessageContaining("enforced, optional, off");
  }

  @Test
  void aValueThatIsNoMode_refusesTheDeployment() {
    config.put(DeployedOperationModes.property(operation), "sometimes");
    List<Throwable> problems = new ArrayList<>();

    OperationModeCheck.check(new MapConfig(config), deploymentProblems(problems));

    assertThat(problems)
        .singleElement()
        .satisfies(
            p ->
                assertThat(p.getMessage())
                    .contains(DeployedOperationModes.property(operation))
                    .contains("enforced, optional, off"));
  }

  @Test
  void aDeploymentWithoutAProblemTypeBase_isRefused() {
    config.remove(ProblemDetails.TYPE_BASE);
    List<Object> registered = new ArrayList<>();

    // The library has no base of its own: the application names its problem documentation.
    assertThatThrownBy(() -> configure(Widgets.class, registered))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(ProblemDetails.TYPE_BASE);
    assertThat(registered).isEmpty();
  }

  @Test
  void aValueThatIsNoMode_failsTheFeatureToo() {
    config.put(DeployedOperationModes.property(WIDGETS), "no");
    List<Object> registered = new ArrayList<>();

    assertThatThrownBy(() -> configure(Widgets.class, registered))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(DeployedOperationModes.property(WIDGETS));
    assertThat(registered).isEmpty();
  }

  // --- enforced: today's behaviour ---

  @Test
  void enforced_aRequestWithoutAKeyIsRefused() {
    FakeRequest request = new FakeRequest("alice", null, "{}");

    filter(OperationMode.ENFORCED).filter(request.context());

    assertThat(request.aborted).isNotNull();
    assertThat(request.aborted.getStatus()).isEqualTo(400);
  }

  @Test
  void enforced_isTheFeaturesDefault_withAFilter() {
    List<Object> registered = new ArrayList<>();

    configure(Widgets.class, registered);

    assertThat(registered).singleElement().isInstanceOf(IdempotencyFilter.class);
    assertThat(logged).isEmpty();
  }

  // --- optional ---

  @Test
  void optional_aRequestWithoutAKeyRunsUnprotected_evenWhenTheAnnotationRequiresAKey() {
    FakeRequest request = new FakeRequest("alice", null, "{}");
    IdempotencyFilter filter = filter(OperationMode.OPTIONAL);
    ContainerRequestContext context = withProperties(request.context());

    filter.filter(context);
    MultivaluedHashMap<String, Object> headers = new MultivaluedHashMap<>();
    filter.filter(context, response(201, headers));

    assertThat(request.aborted).isNull();
    // Nothing admitted: both interceptors pass straight through.
    assertThat(gate.lifecycle.phase()).isEqualTo(Phase.UNGUARDED);
    assertThat(gate.lifecycle.claim()).isNull();
    assertThat(headers).doesNotContainKey(IdempotencyGate.EXPIRES_HEADER);
    assertThat(rows()).isZero();
  }

  @Test
  void optional_aRequestWithAKeyIsHandledAsToday() {
    FakeRequest request = new FakeRequest("alice", KEY, "{\"widget\":1}");
    IdempotencyFilter filter = filter(OperationMode.OPTIONAL);
    ContainerRequestContext context = withProperties(request.context());

    filter.filter(context);
    MultivaluedHashMap<String, Object> headers = new MultivaluedHashMap<>();
    filter.filter(context, response(201, headers));

    assertThat(request.aborted).isNull();
    assertThat(gate.lifecycle.phase()).isEqualTo(Phase.ADMITTED);
    assertThat(headers).containsKey(IdempotencyGate.EXPIRES_HEADER);
  }

  @Test
  void optional_anInvalidKeyIsStillRefused() {
    FakeRequest request = new FakeRequest("alice", "not a key", "{}");

    filter(OperationMode.OPTIONAL).filter(withProperties(request.context()));

    assertThat(request.aborted).isNotNull();
    assertThat(request.aborted.getStatus()).isEqualTo(400);
  }

  @Test
  void optional_theFeatureRegistersTheFilter() {
    config.put(DeployedOperationModes.property(WIDGETS), "optional");
    List<Object> registered = new ArrayList<>();

    configure(Widgets.class, registered);

    assertThat(registered).singleElement().isInstanceOf(IdempotencyFilter.class);
  }

  // --- off ---

  @Test
  void off_theFeatureRegistersNoFilter() {
    config.put(DeployedOperationModes.property(WIDGETS), "off");
    List<Object> registered = new ArrayList<>();

    configure(Widgets.class, registered);

    assertThat(registered).isEmpty();
  }

  @Test
  void off_aFilterIgnoresTheKeyEntirely_evenAnInvalidOne() {
    for (String key : new String[] {KEY, "not a key", null}) {
      FakeRequest request = new FakeRequest("alice", key, "{\"widget\":1}");
      IdempotencyFilter filter = filter(OperationMode.OFF);
      ContainerRequestContext context = withProperties(request.context());

      filter.filter(context);
      MultivaluedHashMap<String, Object> headers = new MultivaluedHashMap<>();
      filter.filter(context, response(201, headers));

      assertThat(request.aborted).as(key).isNull();
      assertThat(gate.lifecycle.phase()).as(key).isEqualTo(Phase.UNGUARDED);
      assertThat(headers).as(key).doesNotContainKey(IdempotencyGate.EXPIRES_HEADER);
    }
    assertThat(rows()).isZero();
  }

  // --- What others can ask, and the log line ---

  @Test
  void notEnforced_listsSetModesAndRegisteredOperationsSetThroughTheEnvironment() {
    String registered = "gadgets-" + UUID.randomUUID() + ".create";
    DeployedOperationModes.register(registered);
    config.put(DeployedOperationModes.property(operation), "Optional");
    // MicroProfile Config's environment variable for the property: non-alphanumerics to _, upper.
    config.put(
        DeployedOperationModes.property(registered)
            .replaceAll("[^A-Za-z0-9]", "_")
            .toUpperCase(Locale.ROOT),
        "off");
    config.put("IDEMPOTENCY_OPERATIONS_PARCELS_SHIP_MODE", "off");
    config.put("idempotency.operations.enforced.one.mode", "enforced");

    var notEnforced = DeployedOperationModes.notEnforced(new MapConfig(config));

    assertThat(notEnforced)
        .containsEntry(operation, OperationMode.OPTIONAL)
        .containsEntry(registered, OperationMode.OFF)
        .containsEntry("parcels.ship", OperationMode.OFF)
        .doesNotContainKey("enforced.one");
  }

  @Test
  void acknowledged_isFalseUnlessSetToTrue() {
    assertThat(DeployedOperationModes.acknowledged(new MapConfig(config))).isFalse();
    config.put(DeployedOperationModes.ACKNOWLEDGED, "false");
    assertThat(DeployedOperationModes.acknowledged(new MapConfig(config))).isFalse();
    config.put(DeployedOperationModes.ACKNOWLEDGED, "TRUE");
    assertThat(DeployedOperationModes.acknowledged(new MapConfig(config))).isTrue();
  }

  @Test
  void everyOperationNotEnforcedIsLoggedOnceAtSevere_withTheAcknowledgement() {
    config.put(DeployedOperationModes.property(GADGETS), "off");
    List<Throwable> problems = new ArrayList<>();

    // At start-up, then again when JAX-RS builds the resource: one line.
    OperationModeCheck.check(new MapConfig(config), deploymentProblems(problems));
    configure(Gadgets.class, new ArrayList<>());

    assertThat(problems).isEmpty();
    List<LogRecord> mine =
        logged.stream().filter(r -> r.getMessage().contains(GADGETS + ":")).toList();
    assertThat(mine)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.getLevel()).isEqualTo(Level.SEVERE);
              assertThat(r.getMessage())
                  .contains("Idempotency-Keys no longer protect operation " + GADGETS)
                  .contains(DeployedOperationModes.property(GADGETS) + "=off")
                  .contains("comparison runs only")
                  .contains("NOT acknowledged")
                  .contains(DeployedOperationModes.ACKNOWLEDGED + "=false");
            });
  }

  @Test
  void theLogLineSaysWhenItWasAcknowledged() {
    config.put(DeployedOperationModes.property(operation), "optional");
    config.put(DeployedOperationModes.ACKNOWLEDGED, "true");

    OperationModeCheck.check(new MapConfig(config), deploymentProblems(new ArrayList<>()));

    assertThat(logged)
        .filteredOn(r -> r.getMessage().contains(operation + ":"))
        .singleElement()
        .satisfies(
            r ->
                assertThat(r.getMessage())
                    .contains("=optional")
                    .contains("without an Idempotency-Key runs the method unprotected")
                    .contains(DeployedOperationModes.ACKNOWLEDGED + "=true")
                    .doesNotContain("NOT acknowledged"));
  }

  // --- Plumbing ---

  private IdempotencyFilter filter(OperationMode mode) {
    return new IdempotencyFilter(GateFixtures.policy(operation, SideEffects.LOCAL), mode, gate);
  }

  /** The operation of {@link Widgets}: the feature reads the annotation of a real method. */
  private static final String WIDGETS = "switch.widgets";

  /** The operation of {@link Gadgets}, deployed by one test only: it is logged once per JVM. */
  private static final String GADGETS = "switch.gadgets";

  public static class Widgets {
    @POST
    @Idempotent(operation = WIDGETS)
    public Response create() {
      return Response.ok().build();
    }
  }

  public static class Gadgets {
    @POST
    @Idempotent(operation = GADGETS)
    public Response create() {
      return Response.ok().build();
    }
  }

  /** Runs the feature on {@code resource}'s {@code create}; what it registers goes to the list. */
  private void configure(Class<?> resource, List<Object> registered) {
    Method method;
    try {
      method = resource.getMethod("create");
    } catch (NoSuchMethodException e) {
      throw new AssertionError(e);
    }
    ResourceInfo info =
        (ResourceInfo)
            Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {ResourceInfo.class},
                (p, m, a) ->
                    switch (m.getName()) {
                      case "getResourceMethod" -> method;
                      case "getResourceClass" -> resource;
                      default -> null;
                    });
    FeatureContext context =
        (FeatureContext)
            Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {FeatureContext.class},
                (p, m, a) -> {
                  if (m.getName().equals("register")) {
                    registered.add(a[0]);
                  }
                  return p;
                });
    new IdempotencyFeature(() -> new MapConfig(config)).configure(info, context);
  }

  private int rows() {
    try (Connection connection = dataSource.getConnection();
        ResultSet rs =
            connection.createStatement().executeQuery("SELECT COUNT(*) FROM idempotency_record")) {
      rs.next();
      return rs.getInt(1);
    } catch (java.sql.SQLException e) {
      throw new AssertionError(e);
    }
  }

  private static AfterDeploymentValidation deploymentProblems(List<Throwable> problems) {
    return (AfterDeploymentValidation)
        Proxy.newProxyInstance(
            OperationModeTest.class.getClassLoader(),
            new Class<?>[] {AfterDeploymentValidation.class},
            (p, m, a) -> {
              if (m.getName().equals("addDeploymentProblem")) {
                problems.add((Throwable) a[0]);
              }
              return null;
            });
  }

  /** A request context that keeps the properties the filter sets (the fixture's drops them). */
  private static ContainerRequestContext withProperties(ContainerRequestContext context) {
    Map<String, Object> properties = new HashMap<>();
    return (ContainerRequestContext)
        Proxy.newProxyInstance(
            OperationModeTest.class.getClassLoader(),
            new Class<?>[] {ContainerRequestContext.class},
            (p, m, a) ->
                switch (m.getName()) {
                  case "setProperty" -> properties.put((String) a[0], a[1]);
                  case "getProperty" -> properties.get((String) a[0]);
                  default -> m.invoke(context, a);
                });
  }

  private static ContainerResponseContext response(
      int status, MultivaluedHashMap<String, Object> headers) {
    return (ContainerResponseContext)
        Proxy.newProxyInstance(
            OperationModeTest.class.getClassLoader(),
            new Class<?>[] {ContainerResponseContext.class},
            (p, m, a) ->
                switch (m.getName()) {
                  case "getStatus" -> status;
                  case "getHeaders" -> headers;
                  default -> null;
                });
  }
}
