package com.banhang.shop.client;

import static com.banhang.shop.client.ScriptedShop.created;
import static com.banhang.shop.client.ScriptedShop.dropConnection;
import static com.banhang.shop.client.ScriptedShop.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.shop.client.ScriptedShop.Received;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.jboss.resteasy.client.jaxrs.ResteasyWebTarget;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The filter in a real JAX-RS client (RESTEasy), through a proxy of an annotated interface: the
 * same kind of interface a MicroProfile Rest Client is built from.
 */
class IdempotencyKeyFilterTest {

  /** The shop's endpoints, as a caller's Rest Client interface would declare them. */
  @Path("/api/v1/orders")
  public interface OrdersApi {
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    Response create(String order);

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    Response create(@HeaderParam("Idempotency-Key") String key, String order);

    /** Returns the entity: a status of 400 or more is thrown, as a Rest Client's mapper does. */
    @POST
    @Path("{orderId}/payments")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    String pay(@PathParam("orderId") String orderId, String payment);

    @GET
    @Path("{orderId}")
    @Produces(MediaType.APPLICATION_JSON)
    Response get(@PathParam("orderId") String orderId);
  }

  private static final String ORDER_JSON = ShopClientTest.ORDER_JSON;

  private ScriptedShop shop;
  private Client client;
  private FakeClock clock;

  @BeforeEach
  void start() throws IOException {
    shop = new ScriptedShop();
    client = ClientBuilder.newClient().register(new IdempotencyKeyFilter());
    clock = new FakeClock();
  }

  @AfterEach
  void stop() {
    client.close();
    shop.close();
  }

  private OrdersApi api(URI baseUri) {
    return ((ResteasyWebTarget) client.target(baseUri)).proxy(OrdersApi.class);
  }

  private RetryPolicy policy() {
    return new RetryPolicy(
        Duration.ofMillis(100),
        Duration.ofSeconds(2),
        Duration.ofSeconds(30),
        Duration.ofSeconds(5),
        new Random(5),
        clock);
  }

  @Test
  void givesEachPostOutsideACallANewKeyAndAGetNone() {
    shop.script(created("{}"), created("{}"), created("{}"));
    OrdersApi api = api(shop.baseUri());

    api.create(ORDER_JSON).close();
    api.create(ORDER_JSON).close();
    api.get("o-1").close();

    List<Received> received = shop.received();
    assertThat(received.get(0).key()).matches(ShopClientTest.QUOTED_UUID_V4);
    assertThat(received.get(1).key()).matches(ShopClientTest.QUOTED_UUID_V4);
    assertThat(received.get(1).key()).isNotEqualTo(received.get(0).key());
    assertThat(received.get(2).method()).isEqualTo("GET");
    assertThat(received.get(2).key()).isNull();
  }

  @Test
  void leavesAKeyTheCallerSetAsItIs() {
    shop.script(created("{}"));

    IdempotencyKeyFilter.callWithKey(
            "bound", () -> api(shop.baseUri()).create("mine-1", ORDER_JSON))
        .close();

    assertThat(shop.received()).singleElement().extracting(Received::key).isEqualTo("mine-1");
  }

  @Test
  void givesEveryRequestOfOneCallTheKeyBoundToIt() {
    shop.script(created("{}"), created("{}"), created("{}"));
    OrdersApi api = api(shop.baseUri());

    IdempotencyKeyFilter.callWithKey(
        "intent-7",
        () -> {
          api.create(ORDER_JSON).close();
          api.create(ORDER_JSON).close();
          return null;
        });
    api.create(ORDER_JSON).close();

    List<Received> received = shop.received();
    assertThat(received.get(0).key()).isEqualTo("\"intent-7\"");
    assertThat(received.get(1).key()).isEqualTo("\"intent-7\"");
    assertThat(received.get(2).key())
        .as("unbound after the call")
        .matches(ShopClientTest.QUOTED_UUID_V4);
  }

  @Test
  void retrySendsOneKeyAndTheSameBytesUntilAFinalAnswer() {
    shop.script(
        problem(503, "payment-gateway-unavailable").header("Retry-After", "2"),
        problem(409, "idempotency-key-in-use"),
        dropConnection(),
        created("{\"id\":\"o-1\"}").header("Location", "/api/v1/orders/o-1"));
    OrdersApi api = api(shop.baseUri());

    Result result = IdempotencyKeyFilter.retry(policy(), "intent-8", () -> api.create(ORDER_JSON));

    assertThat(result).isInstanceOf(Result.Created.class);
    assertThat(((Result.Created) result).location()).contains("/api/v1/orders/o-1");
    assertThat(((Result.Created) result).json().getString("id")).isEqualTo("o-1");
    List<Received> received = shop.received();
    assertThat(received).hasSize(4);
    assertThat(received).extracting(Received::key).containsOnly("\"intent-8\"");
    assertThat(received).extracting(Received::bodyText).containsOnly(ORDER_JSON);
    assertThat(clock.sleeps()).hasSize(3);
    assertThat(clock.sleeps().get(0)).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void retryStopsAtAFinalAnswerAndParsesItsProblem() {
    shop.script(problem(422, "idempotency-key-reused"), created("{}"));
    OrdersApi api = api(shop.baseUri());

    Result result = IdempotencyKeyFilter.retry(policy(), () -> api.create(ORDER_JSON));

    assertThat(result).isInstanceOf(Result.Rejected.class);
    Result.Rejected rejected = (Result.Rejected) result;
    assertThat(rejected.status()).isEqualTo(422);
    assertThat(rejected.problem().slug()).isEqualTo("idempotency-key-reused");
    assertThat(shop.received()).hasSize(1);
  }

  @Test
  void retryReadsTheAnswerOutOfTheExceptionARestClientThrows() {
    shop.script(problem(402, "payment-declined"));
    OrdersApi api = api(shop.baseUri());

    Result result =
        IdempotencyKeyFilter.retry(
            policy(), () -> Response.ok(api.pay("o-1", "{\"amount\":1}")).build());

    assertThat(result).isInstanceOf(Result.Declined.class);
    assertThat(((Result.Declined) result).problem().detail()).isEqualTo("d-payment-declined");
    assertThat(shop.received())
        .singleElement()
        .extracting(Received::key)
        .asString()
        .matches(ShopClientTest.QUOTED_UUID_V4);
  }

  @Test
  void retryWithNoAnswerBeforeTheDeadlineIsOutcomeUnknownWithTheKey() throws IOException {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    OrdersApi api = api(URI.create("http://127.0.0.1:" + closedPort));

    Result result =
        IdempotencyKeyFilter.retry(
            policy().withDeadline(Duration.ofSeconds(2)), "intent-9", () -> api.create(ORDER_JSON));

    assertThat(result).isInstanceOf(Result.OutcomeUnknown.class);
    Result.OutcomeUnknown unknown = (Result.OutcomeUnknown) result;
    assertThat(unknown.idempotencyKey()).isEqualTo("intent-9");
    assertThat(unknown.intentId()).isEmpty();
    assertThat(unknown.tries()).isGreaterThan(1);
    assertThat(unknown.lastAnswer()).startsWith("no answer");
  }

  @Test
  void refusesAKeyTheShopWouldRefuse() {
    assertThatThrownBy(() -> IdempotencyKeyFilter.callWithKey("é", () -> null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> IdempotencyKeyFilter.retry(policy(), "", () -> null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(shop.received()).isEmpty();
  }
}
