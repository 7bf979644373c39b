package it.com.banhang.shop;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How long the shop took to settle the payments whose outcome it could not learn (docs/proof.md,
 * "Time to settle: webhooks vs polling"), read from the payment timeline of the database behind the
 * server: per payment, from its first {@code OUTCOME_UNKNOWN} entry to its first {@code CAPTURED}
 * or {@code DECLINED} entry, with the actor of that entry ({@code gateway-webhook}, {@code
 * reconciliation}, {@code late-charge-sweep}, {@code shop}). An unknown outcome that ended with the
 * attempt abandoned (reconciliation found nothing charged and released the key) is counted apart:
 * no webhook can settle it, since nothing was charged. The same SQL on H2 and PostgreSQL.
 *
 * <p>Used by {@code RetryStormIT} in the build and at full size by bench/time-to-settle.
 */
public final class TimeToSettle {

  /**
   * One unknown outcome that was settled.
   *
   * @param paymentId the attempt
   * @param took from its OUTCOME_UNKNOWN entry to its first CAPTURED or DECLINED entry; negative
   *     when the settlement was written before the unknown outcome (never expected)
   * @param actor who wrote the settlement
   */
  public record Settled(String paymentId, Duration took, String actor) {}

  /**
   * What became of the unknown outcomes of the payments created since a time.
   *
   * @param settled each settled one, fastest first
   * @param abandoned unknown outcomes whose attempt ended abandoned (nothing charged)
   * @param open unknown outcomes neither settled nor abandoned (their payment still pending)
   */
  public record Result(List<Settled> settled, int abandoned, int open) {

    /** Unknown outcomes in all. */
    public int unknown() {
      return settled.size() + abandoned + open;
    }

    /** The settled ones written before their unknown outcome: none may be. */
    public long settledBeforeUnknown() {
      return settled.stream().filter(s -> s.took().isNegative()).count();
    }

    /** How many were settled by each actor. */
    public Map<String, Long> byActor() {
      Map<String, Long> counts = new TreeMap<>();
      settled.forEach(s -> counts.merge(s.actor(), 1L, Long::sum));
      return counts;
    }

    /** The {@code p}-th percentile (nearest rank) of the settled ones' times, or null if none. */
    public Duration percentile(double p) {
      return percentile(settled, p);
    }

    /** The {@code p}-th percentile of those settled by {@code actor}, or null if none. */
    public Duration percentile(String actor, double p) {
      return percentile(settled.stream().filter(s -> s.actor().equals(actor)).toList(), p);
    }

    private static Duration percentile(List<Settled> sorted, double p) {
      if (sorted.isEmpty()) {
        return null;
      }
      int rank = (int) Math.ceil(p / 100.0 * sorted.size());
      return sorted.get(Math.max(0, Math.min(sorted.size(), rank) - 1)).took();
    }

    /** One line: counts, median and p99, overall and by actor. */
    public String summary() {
      StringBuilder out = new StringBuilder();
      out.append(
          String.format(
              "unknown outcomes: %d; settled: %d (median %s, p99 %s, max %s); by %s;"
                  + " abandoned (nothing charged): %d; still open: %d",
              unknown(),
              settled.size(),
              seconds(percentile(50)),
              seconds(percentile(99)),
              seconds(percentile(100)),
              byActor(),
              abandoned,
              open));
      for (String actor : byActor().keySet()) {
        out.append(
            String.format(
                "%n  settled by %s: median %s, p99 %s",
                actor, seconds(percentile(actor, 50)), seconds(percentile(actor, 99))));
      }
      return out.toString();
    }

    /** The table rows bench/time-to-settle gathers (one storm's column). */
    public String table(String label) {
      StringBuilder out = new StringBuilder();
      row(out, "time to settle", label);
      row(out, "unknown outcomes (OUTCOME_UNKNOWN entries)", unknown());
      row(out, "settled (captured or declined)", settled.size());
      row(out, "settled by", byActor());
      row(out, "time to settle, median", seconds(percentile(50)));
      row(out, "time to settle, p99", seconds(percentile(99)));
      row(out, "time to settle, max", seconds(percentile(100)));
      row(out, "abandoned (nothing charged: no webhook can settle)", abandoned);
      row(out, "still open", open);
      return out.toString();
    }

    private static void row(StringBuilder out, String name, Object value) {
      out.append(String.format("| %-50s | %s |%n", name, value));
    }
  }

  private TimeToSettle() {}

  /** Seconds with a tenth, e.g. {@code 2.4 s}, or {@code -} for none. */
  public static String seconds(Duration duration) {
    return duration == null ? "-" : String.format("%.1f s", duration.toMillis() / 1000.0);
  }

  /** The unknown outcomes of the payments created at or after {@code since}, and their fate. */
  public static Result since(Instant since) {
    String sql =
        "SELECT t.payment_id, t.kind, t.actor, t.occurred_at, p.status"
            + " FROM payment_timeline t JOIN payment p ON p.id = t.payment_id"
            + " WHERE p.created_at >= ?"
            + " AND t.kind IN ('OUTCOME_UNKNOWN', 'CAPTURED', 'DECLINED')"
            + " AND t.payment_id IN (SELECT u.payment_id FROM payment_timeline u"
            + " WHERE u.kind = 'OUTCOME_UNKNOWN')"
            + " ORDER BY t.payment_id, t.occurred_at, t.id";
    Map<String, Instant> unknownAt = new LinkedHashMap<>();
    Map<String, Instant> settledAt = new LinkedHashMap<>();
    Map<String, String> settledBy = new LinkedHashMap<>();
    Map<String, String> status = new LinkedHashMap<>();
    try (Connection connection = ShopDatabase.connect();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      statement.setObject(1, OffsetDateTime.ofInstant(since, ZoneOffset.UTC));
      try (ResultSet rs = statement.executeQuery()) {
        while (rs.next()) {
          String payment = rs.getString(1);
          String kind = rs.getString(2);
          Instant at = rs.getObject(4, OffsetDateTime.class).toInstant();
          status.put(payment, rs.getString(5));
          if ("OUTCOME_UNKNOWN".equals(kind)) {
            unknownAt.putIfAbsent(payment, at);
          } else if (!settledAt.containsKey(payment)) {
            settledAt.put(payment, at);
            settledBy.put(payment, rs.getString(3));
          }
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the shop's payment timeline", e);
    }
    List<Settled> settled = new ArrayList<>();
    int abandoned = 0;
    int open = 0;
    for (Map.Entry<String, Instant> unknown : unknownAt.entrySet()) {
      String payment = unknown.getKey();
      Instant settledWhen = settledAt.get(payment);
      if (settledWhen != null) {
        settled.add(
            new Settled(
                payment,
                Duration.between(unknown.getValue(), settledWhen),
                settledBy.get(payment)));
      } else if ("ABANDONED".equals(status.get(payment))) {
        abandoned++;
      } else {
        open++;
      }
    }
    settled.sort(Comparator.comparing(Settled::took));
    return new Result(List.copyOf(settled), abandoned, open);
  }
}
