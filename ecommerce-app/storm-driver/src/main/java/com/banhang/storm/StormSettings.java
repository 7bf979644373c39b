package com.banhang.storm;

import java.time.Duration;
import java.util.List;

/**
 * One storm's settings; {@link #defaults()} is the storm of docs/proof.md (1,000 intents, about 5%
 * slow calls, 3% lost answers, 2% lost requests, 2% failures before charging).
 *
 * @param shopUrls the base URL of each shop node, e.g. {@code http://localhost:9080}; with several,
 *     intent n sends its first try to node n modulo their number and each retry to the next node
 * @param sandboxUrl the gateway sandbox's base URL (its {@code /v1/faults} and {@code /v1/stats})
 * @param customers user names; each one's password is the name followed by {@code passwordSuffix}
 * @param passwordSuffix appended to a user name to make its password (the development users')
 * @param operator the operator user that lists stuck keys and runs reconciliation while settling
 * @param clientTimeout how long the customer's app waits for one answer before it retries
 * @param giveUpAfter how long it keeps retrying one request before it abandons the intent
 * @param settle how long to wait after the storm for the shop to settle every key it left open
 */
public record StormSettings(
    List<String> shopUrls,
    String sandboxUrl,
    int intents,
    int concurrency,
    long seed,
    List<String> customers,
    String passwordSuffix,
    String operator,
    Duration clientTimeout,
    Duration giveUpAfter,
    Duration settle,
    GatewayFaults faults) {

  /**
   * The sandbox's faults during the storm.
   *
   * @param slowProbability share of calls slower than the client's timeout (the client retries
   *     while the first call still runs)
   * @param slowLatencyMs how slow those are; below the shop's own read timeout on the gateway
   * @param dropResponseProbability share of calls that charge and then lose their answer
   * @param loseRequestProbability share of calls whose request never reaches the processor
   * @param errorBeforeChargeProbability share of calls that fail before charging
   */
  public record GatewayFaults(
      double slowProbability,
      long slowLatencyMs,
      double dropResponseProbability,
      double loseRequestProbability,
      double errorBeforeChargeProbability) {

    /** The shares docs/proof.md measures with. */
    public static GatewayFaults standard() {
      return new GatewayFaults(0.05, 2_500, 0.03, 0.02, 0.02);
    }

    /** The sandbox's fault settings ({@code PUT /v1/faults}) for these shares, seeded. */
    public String json(long seed) {
      return "{\"slowProbability\":"
          + slowProbability
          + ",\"slowLatencyMs\":"
          + slowLatencyMs
          + ",\"latencyPhase\":\"AFTER_CHARGE\""
          + ",\"dropResponseProbability\":"
          + dropResponseProbability
          + ",\"loseRequestProbability\":"
          + loseRequestProbability
          + ",\"errorBeforeChargeProbability\":"
          + errorBeforeChargeProbability
          + ",\"seed\":"
          + seed
          + "}";
    }
  }

  /** 1,000 intents against the development server the README's run command starts. */
  public static StormSettings defaults() {
    return new StormSettings(
        List.of("http://localhost:9080"),
        "http://localhost:9080/gateway",
        1_000,
        16,
        2026,
        List.of("alice", "bob"),
        "-secret",
        "operator",
        Duration.ofMillis(1_500),
        Duration.ofSeconds(60),
        Duration.ofSeconds(120),
        GatewayFaults.standard());
  }

  public StormSettings {
    if (shopUrls.isEmpty()) {
      throw new IllegalArgumentException("a storm needs at least one shop node");
    }
    shopUrls = List.copyOf(shopUrls);
    customers = List.copyOf(customers);
  }

  /** The first node: where the storm reads orders and the stuck-operations list. */
  public String shopUrl() {
    return shopUrls.get(0);
  }

  public StormSettings withUrls(String shop, String sandbox) {
    return withNodes(List.of(shop), sandbox);
  }

  /** Several shop nodes on one database, and the sandbox they all call. */
  public StormSettings withNodes(List<String> shops, String sandbox) {
    return new StormSettings(
        shops,
        sandbox,
        intents,
        concurrency,
        seed,
        customers,
        passwordSuffix,
        operator,
        clientTimeout,
        giveUpAfter,
        settle,
        faults);
  }

  public StormSettings withIntents(int count, int threads) {
    return new StormSettings(
        shopUrls,
        sandboxUrl,
        count,
        threads,
        seed,
        customers,
        passwordSuffix,
        operator,
        clientTimeout,
        giveUpAfter,
        settle,
        faults);
  }

  public StormSettings withSeed(long newSeed) {
    return new StormSettings(
        shopUrls,
        sandboxUrl,
        intents,
        concurrency,
        newSeed,
        customers,
        passwordSuffix,
        operator,
        clientTimeout,
        giveUpAfter,
        settle,
        faults);
  }

  public StormSettings withTimes(Duration timeout, Duration giveUp, Duration settleFor) {
    return new StormSettings(
        shopUrls,
        sandboxUrl,
        intents,
        concurrency,
        seed,
        customers,
        passwordSuffix,
        operator,
        timeout,
        giveUp,
        settleFor,
        faults);
  }
}
