package com.banhang.storm;

import java.time.Duration;
import java.util.Map;

/**
 * What one storm did, counted from the outside: what the clients sent and were told, and what the
 * gateway charged by its own counts.
 *
 * @param label what was stormed (e.g. "claim-first" or "idempotency off")
 * @param requestsSent every HTTP request the clients sent, retries included
 * @param answers answers by status, and tries that got none ("timeout", "connection error")
 * @param ordersCreated intents whose order was created (201)
 * @param paymentsCaptured intents told their payment was captured (201)
 * @param paymentsDeclined intents told their card was declined (402)
 * @param intentsAbandoned intents whose client gave up (on the order or on the payment)
 * @param chargesAtGateway succeeded charges the gateway holds for this storm's orders
 * @param ordersChargedTwice orders the gateway charged two times or more
 * @param capturedNotChargedOnce payments the shop answered captured whose order the gateway did not
 *     charge exactly once
 * @param paidButNeverCharged orders the shop shows PAID that the gateway never charged
 * @param chargedButNotPaid orders the gateway charged that the shop does not show PAID
 * @param chargedButNotTold orders the gateway charged whose customer was never told "captured" (the
 *     client gave up, or got a final answer other than 201)
 * @param processingKeysLeft this storm's keys still processing after the settle period (-1: the
 *     operator API could not be asked)
 * @param nodes the shop nodes the storm spread its tries over
 * @param processingWhenSettling every key the operator API listed as processing when settling began
 *     (the storm's and any other client's)
 * @param reconciliation the findings of the settling reconciliation runs, added up over every run
 *     on every node ({@code CAPTURED}, {@code RELEASED}, {@code SETTLED_ELSEWHERE}, ...)
 * @param lateCharges the findings of the settling late-charge sweeps, added up the same way
 * @param took the storm's duration, settling included
 */
public record StormReport(
    String label,
    int intents,
    long requestsSent,
    Map<String, Long> answers,
    int ordersCreated,
    int paymentsCaptured,
    int paymentsDeclined,
    int intentsAbandoned,
    long chargesAtGateway,
    int ordersChargedTwice,
    int capturedNotChargedOnce,
    int paidButNeverCharged,
    int chargedButNotPaid,
    int chargedButNotTold,
    int processingKeysLeft,
    int nodes,
    int processingWhenSettling,
    Map<String, Integer> reconciliation,
    Map<String, Integer> lateCharges,
    Duration took) {

  /** Keys the settling runs settled (captured, declined or released), over every node. */
  public int keysSettledByRuns() {
    return reconciliation.getOrDefault("CAPTURED", 0)
        + reconciliation.getOrDefault("DECLINED", 0)
        + reconciliation.getOrDefault("RELEASED", 0);
  }

  /**
   * More settlements than there were keys to settle: some key was settled twice, by two runs or two
   * nodes. No client sends anything while the storm settles, so no key starts processing then.
   */
  public boolean aKeySettledTwice() {
    return keysSettledByRuns() > processingWhenSettling;
  }

  /** No order charged twice, and every payment answered captured charged exactly once. */
  public boolean ok() {
    return ordersChargedTwice == 0 && capturedNotChargedOnce == 0 && paidButNeverCharged == 0;
  }

  /** The report as a two-column table. */
  public String table() {
    StringBuilder out = new StringBuilder();
    row(out, "storm", label);
    row(out, "intents (an order and its payment each)", intents);
    row(out, "requests sent", requestsSent);
    row(out, "answers", answers);
    row(out, "orders created", ordersCreated);
    row(out, "payments answered captured", paymentsCaptured);
    row(out, "payments answered declined", paymentsDeclined);
    row(out, "intents abandoned by the client", intentsAbandoned);
    row(out, "charges at the gateway (its own counts)", chargesAtGateway);
    row(out, "orders charged twice or more", ordersChargedTwice);
    row(out, "captured answers not charged exactly once", capturedNotChargedOnce);
    row(out, "orders paid but never charged", paidButNeverCharged);
    row(out, "orders charged but not paid", chargedButNotPaid);
    row(out, "orders charged, customer never told", chargedButNotTold);
    row(out, "processing keys left after settling", processingKeysLeft);
    row(out, "shop nodes", nodes);
    row(out, "keys processing when settling began (any client)", processingWhenSettling);
    row(out, "reconciliation runs' findings (all nodes)", reconciliation);
    row(out, "late-charge sweeps' findings (all nodes)", lateCharges);
    row(out, "took", took.toSeconds() + " s");
    row(out, "verdict", ok() ? "PASS" : "FAIL: a customer was charged twice or wrongly");
    return out.toString();
  }

  private static void row(StringBuilder out, String name, Object value) {
    out.append(String.format("| %-50s | %s |%n", name, value));
  }
}
