package com.banhang.storm;

import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The retry storm on a real server: every intent creates an order and pays it, each request under a
 * key of its own that every retry keeps, while the gateway sandbox is slow, loses answers after
 * charging, loses requests and fails before charging. Afterwards the faults are lifted, the shop is
 * given time to settle what it left open (reconciliation runs, as an operator would run it), and
 * the gateway's own counts are compared with what the clients were told.
 *
 * <p>Seeded: the faults (the sandbox's seed) and each client's retry waits repeat; the keys and
 * SKUs are new on every run, so that a second run against the same database is a new storm, not a
 * replay of the first.
 */
public final class Storm {

  private static final long UNIT_PRICE = 100_000;

  private final StormSettings settings;
  private final RetryingClient client;
  private static final int PAGE = 500;

  private final String runId = UUID.randomUUID().toString().substring(0, 8);
  private final Set<String> keys = ConcurrentHashMap.newKeySet();

  /** Whether settling runs reconciliation as an operator ({@code true}) or only waits. */
  private boolean operatorSettles = true;

  /** When, after the storm's start, every gateway answer starts being lost; null: never. */
  private Duration answersLostAfter;

  /** How long every gateway answer is lost from then. */
  private Duration answersLostFor;

  /** How often the incident starts again; null: once. */
  private Duration answersLostEvery;

  public Storm(StormSettings settings) {
    this.settings = settings;
    this.client = new RetryingClient(settings.clientTimeout(), settings.giveUpAfter());
  }

  /**
   * Settles without an operator: after the storm the driver only waits (up to the settle period)
   * for the shop's own scheduled reconciliation, or the processor's webhooks, to settle the keys
   * left open, so that the time each unknown outcome took to settle is the shop's own
   * (bench/time-to-settle). By default the driver runs reconciliation as an operator would.
   */
  public Storm leavingSettlementToTheShop() {
    operatorSettles = false;
    return this;
  }

  /**
   * Adds a processor incident to the storm: {@code after} its start, for {@code lasting}, the
   * processor charges every call and loses every answer, its replays' too ({@code
   * dropResponseProbability 1, faultsOnReplays}), so that each payment sent then ends with its
   * outcome unknown to the shop after all its tries, and charged: what the processor's webhooks and
   * reconciliation settle (bench/time-to-settle). The storm's own faults hold before and after.
   * With {@code every} (not null), the incident starts again every so often until the customers are
   * done.
   */
  public Storm losingEveryAnswer(Duration after, Duration lasting, Duration every) {
    if (every != null && every.compareTo(lasting) <= 0) {
      throw new IllegalArgumentException("an incident must end before the next one starts");
    }
    answersLostAfter = after;
    answersLostFor = lasting;
    answersLostEvery = every;
    return this;
  }

  /** One intent's story, as its client saw it. */
  private record Intent(
      String user, String orderId, int orders, int payStatus, boolean abandoned) {}

  public StormReport run(String label) throws IOException, InterruptedException {
    long started = System.nanoTime();
    String faults = settings.faults().json(settings.seed());
    setFaults(faults);
    List<Intent> intents = new ArrayList<>();
    ExecutorService customers = Executors.newFixedThreadPool(settings.concurrency());
    ScheduledExecutorService incident = Executors.newSingleThreadScheduledExecutor();
    if (answersLostAfter != null) {
      String lost =
          "{\"dropResponseProbability\":1,\"faultsOnReplays\":true,"
              + "\"dropMode\":\"GATEWAY_TIMEOUT\",\"seed\":"
              + settings.seed()
              + "}";
      long start = answersLostAfter.toMillis();
      long end = answersLostAfter.plus(answersLostFor).toMillis();
      TimeUnit ms = TimeUnit.MILLISECONDS;
      if (answersLostEvery == null) {
        incident.schedule(() -> setFaults(lost), start, ms);
        incident.schedule(() -> setFaults(faults), end, ms);
      } else {
        long every = answersLostEvery.toMillis();
        incident.scheduleAtFixedRate(() -> quietly(lost), start, every, ms);
        incident.scheduleAtFixedRate(() -> quietly(faults), end, every, ms);
      }
    }
    try {
      List<Future<Intent>> running = new ArrayList<>();
      for (int i = 0; i < settings.intents(); i++) {
        int n = i;
        running.add(customers.submit(() -> intent(n)));
      }
      for (Future<Intent> intent : running) {
        try {
          intents.add(intent.get());
        } catch (java.util.concurrent.ExecutionException e) {
          throw new IllegalStateException("an intent failed in the driver itself", e.getCause());
        }
      }
    } finally {
      customers.shutdownNow();
      incident.shutdownNow();
      incident.awaitTermination(10, TimeUnit.SECONDS);
      setFaults(null);
    }
    Settling settling = settle();
    return report(label, intents, settling, Duration.ofNanos(System.nanoTime() - started));
  }

  /** One customer: an order, then its payment, each retried under its own key. */
  private Intent intent(int n) {
    Random random = new Random(settings.seed() * 1_000_003L + n);
    String user = settings.customers().get(n % settings.customers().size());
    String password = user + settings.passwordSuffix();
    long quantity = 1 + random.nextInt(3);
    String order =
        "{\"currency\":\"VND\",\"items\":[{\"sku\":\"STORM-"
            + runId
            + "-"
            + n
            + "\",\"quantity\":"
            + quantity
            + ",\"unitPrice\":"
            + UNIT_PRICE
            + "}]}";
    RetryingClient.Result created =
        client.post(onEveryNode("/api/v1/orders"), n, user, password, key(n, 0), order, random);
    if (created.status() != 201) {
      return new Intent(user, null, 0, 0, created.abandoned());
    }
    String orderId = json(created.body()).getString("id");
    String payment =
        "{\"amount\":"
            + quantity * UNIT_PRICE
            + ",\"currency\":\"VND\",\"paymentMethod\":\"pm_card_ok\"}";
    RetryingClient.Result paid =
        client.post(
            onEveryNode("/api/v1/orders/" + orderId + "/payments"),
            n + 1,
            user,
            password,
            key(n, 1),
            payment,
            random);
    return new Intent(user, orderId, 1, paid.status(), paid.abandoned());
  }

  /** {@code path} on each node, in the nodes' order. */
  private List<String> onEveryNode(String path) {
    return settings.shopUrls().stream().map(node -> node + path).toList();
  }

  /**
   * The key of request {@code which} of intent {@code n}: new per run, the same for every retry.
   */
  private String key(int n, int which) {
    String key = UUID.nameUUIDFromBytes((runId + "/" + n + "/" + which).getBytes()).toString();
    keys.add(key);
    return key;
  }

  /**
   * Lets the shop settle the keys the storm left open: runs reconciliation and the late-charge
   * sweep, as an operator can, on every node at the same moment, until no key of this storm is
   * processing or the settle period is over. Every run's findings are added up, so that the report
   * can show that the nodes settled no key twice. Left to the shop ({@link
   * #leavingSettlementToTheShop}), it only waits for the same.
   */
  private Settling settle() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + settings.settle().toNanos();
    Listing before = processingKeys();
    Settling settling = new Settling(before.total());
    ExecutorService nodes = Executors.newFixedThreadPool(settings.shopUrls().size());
    try {
      Listing now;
      do {
        List<Future<?>> runs = new ArrayList<>();
        for (String node : operatorSettles ? settings.shopUrls() : List.<String>of()) {
          runs.add(nodes.submit(() -> settleOnce(node, settling)));
        }
        for (Future<?> run : runs) {
          try {
            run.get();
          } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("a settling run failed in the driver", e.getCause());
          }
        }
        now = processingKeys();
        if (now.mine() == 0) {
          break;
        }
        Thread.sleep(2_000);
      } while (System.nanoTime() < deadline);
      settling.processingLeft = now.mine();
      return settling;
    } finally {
      nodes.shutdownNow();
    }
  }

  /** One reconciliation run and one late-charge sweep on {@code node}, their findings counted. */
  private Void settleOnce(String node, Settling settling) throws IOException, InterruptedException {
    String operatorPassword = settings.operator() + settings.passwordSuffix();
    settling.add(
        settling.reconciliation,
        client.exchange(
            "POST",
            node + "/api/v1/admin/reconciliations?minAge=PT0S",
            settings.operator(),
            operatorPassword,
            "{}"));
    // An attempt abandoned as "not charged" whose charge landed anyway (a crash can leave one).
    settling.add(
        settling.lateCharges,
        client.exchange(
            "POST",
            node + "/api/v1/admin/reconciliations/late-charges",
            settings.operator(),
            operatorPassword,
            "{}"));
    return null;
  }

  /** What the settling runs of every node reported, added up. */
  private static final class Settling {
    final int processingWhenStarted;
    final Map<String, Integer> reconciliation = new ConcurrentHashMap<>();
    final Map<String, Integer> lateCharges = new ConcurrentHashMap<>();
    int processingLeft;

    Settling(int processingWhenStarted) {
      this.processingWhenStarted = processingWhenStarted;
    }

    /**
     * Adds a run's findings (its JSON field {@code outcomes}); a run that did not answer 200 is
     * counted as "no answer".
     */
    void add(Map<String, Integer> into, java.net.http.HttpResponse<String> run) {
      if (run.statusCode() != 200) {
        into.merge("no answer (" + run.statusCode() + ")", 1, Integer::sum);
        return;
      }
      json(run.body())
          .getJsonObject("outcomes")
          .forEach((finding, n) -> into.merge(finding, ((JsonNumber) n).intValue(), Integer::sum));
    }
  }

  /** The processing keys the operator API lists: this storm's, and all of them. */
  private record Listing(int mine, int total) {}

  /**
   * This storm's keys still processing: other clients of the same shop (an earlier storm, a test
   * that parks a key for an operator) may have their own, which are not this storm's to settle.
   */
  private Listing processingKeys() throws IOException, InterruptedException {
    int mine = 0;
    for (int offset = 0; ; offset += PAGE) {
      String page =
          client.get(
              settings.shopUrl()
                  + "/api/v1/admin/stuck-operations?minAge=PT0S&limit="
                  + PAGE
                  + "&offset="
                  + offset,
              settings.operator(),
              settings.operator() + settings.passwordSuffix());
      if (page == null) {
        return new Listing(-1, -1); // the operator API did not answer: unknown, never "settled"
      }
      JsonObject json = json(page);
      for (JsonValue item : json.getJsonArray("items")) {
        String key = item.asJsonObject().getJsonObject("ref").getString("key");
        mine += keys.contains(key) ? 1 : 0;
      }
      if (offset + PAGE >= json.getInt("total")) {
        return new Listing(mine, json.getInt("total"));
      }
    }
  }

  private StormReport report(String label, List<Intent> intents, Settling settling, Duration took)
      throws IOException, InterruptedException {
    String stats = client.get(settings.sandboxUrl() + "/v1/stats", null, null);
    JsonObject byOrder = json(stats).getJsonObject("byOrderReference");
    int created = 0;
    int captured = 0;
    int declined = 0;
    int abandoned = 0;
    long charges = 0;
    int twice = 0;
    int capturedNotOnce = 0;
    int paidNeverCharged = 0;
    int chargedNotPaid = 0;
    int chargedNotTold = 0;
    for (Intent intent : intents) {
      abandoned += intent.abandoned() ? 1 : 0;
      if (intent.orderId() == null) {
        continue;
      }
      created++;
      long charged =
          byOrder.containsKey(intent.orderId())
              ? byOrder.getJsonNumber(intent.orderId()).longValue()
              : 0;
      charges += charged;
      twice += charged >= 2 ? 1 : 0;
      if (intent.payStatus() == 201) {
        captured++;
        capturedNotOnce += charged == 1 ? 0 : 1;
      }
      declined += intent.payStatus() == 402 ? 1 : 0;
      chargedNotTold += charged > 0 && intent.payStatus() != 201 ? 1 : 0;
      boolean paid = "PAID".equals(orderStatus(intent));
      paidNeverCharged += paid && charged == 0 ? 1 : 0;
      chargedNotPaid += !paid && charged > 0 ? 1 : 0;
    }
    return new StormReport(
        label,
        intents.size(),
        client.requestsSent(),
        client.histogram(),
        created,
        captured,
        declined,
        abandoned,
        charges,
        twice,
        capturedNotOnce,
        paidNeverCharged,
        chargedNotPaid,
        chargedNotTold,
        settling.processingLeft,
        settings.shopUrls().size(),
        settling.processingWhenStarted,
        new java.util.TreeMap<>(settling.reconciliation),
        new java.util.TreeMap<>(settling.lateCharges),
        took);
  }

  private String orderStatus(Intent intent) throws IOException, InterruptedException {
    String order =
        client.get(
            settings.shopUrl() + "/api/v1/orders/" + intent.orderId(),
            intent.user(),
            intent.user() + settings.passwordSuffix());
    return order == null ? null : json(order).getString("status");
  }

  /** {@link #setFaults} for a repeated task, which must not end on a failure. */
  private void quietly(String json) {
    try {
      setFaults(json);
    } catch (IOException | RuntimeException e) {
      System.err.println("could not change the sandbox's faults: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private Void setFaults(String json) throws IOException, InterruptedException {
    int status =
        json == null
            ? client.send("DELETE", settings.sandboxUrl() + "/v1/faults", null, null, null)
            : client.send("PUT", settings.sandboxUrl() + "/v1/faults", null, null, json);
    if (status != 200) {
      throw new IllegalStateException("the sandbox refused its fault settings: " + status);
    }
    return null;
  }

  private static JsonObject json(String body) {
    try (JsonReader reader = Json.createReader(new StringReader(body))) {
      return reader.readObject();
    }
  }
}
