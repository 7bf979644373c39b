package com.banhang.idempotency.internal;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rate limit of new keys per tenant and operation (docs/idempotency.md, "Rate limit of new
 * keys"): a Bucket4j token bucket per (tenant, operation), in this server's memory, so with N
 * servers the effective limit is N times the configured one. Only a key that has no row yet costs a
 * token; replays, duplicates and refused requests never do.
 *
 * <p>A limit is written {@code <tokens>/<ISO-8601 duration>}: a bucket of that many tokens,
 * refilled greedily at that many per duration, or {@code unlimited}. The limit of (tenant,
 * operation) is the first of {@code idempotency.new-keys.tenant.<tenant>}, {@code
 * idempotency.operations.<operation>.new-keys} and {@code idempotency.new-keys.limit}.
 */
final class NewKeyLimits {

  static final String DEFAULT_LIMIT = "2000/PT10M";
  static final String GLOBAL = "idempotency.new-keys.limit";
  static final String TENANT_PREFIX = "idempotency.new-keys.tenant.";

  /** Most (tenant, operation) buckets kept; the least recently used is dropped beyond it. */
  static final int MAX_BUCKETS = 100_000;

  private static final Logger LOG = Logger.getLogger(NewKeyLimits.class.getName());
  private static final Pattern LIMIT = Pattern.compile("\\s*(\\d{1,9})\\s*/\\s*(\\S+)\\s*");

  /** A parsed limit; null {@code period} means unlimited. */
  record Limit(long tokens, Duration period) {

    static final Limit UNLIMITED = new Limit(0, null);

    boolean unlimited() {
      return period == null;
    }

    /**
     * @throws IllegalArgumentException unless {@code unlimited} or {@code <tokens>/<duration>} with
     *     at least one token and a positive duration
     */
    static Limit parse(String text) {
      if (text.strip().equalsIgnoreCase("unlimited")) {
        return UNLIMITED;
      }
      Matcher m = LIMIT.matcher(text);
      if (!m.matches()) {
        throw new IllegalArgumentException(
            "a new-key limit is <tokens>/<ISO-8601 duration> or unlimited, not " + text);
      }
      long tokens = Long.parseLong(m.group(1));
      Duration period;
      try {
        period = Duration.parse(m.group(2));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("not an ISO-8601 duration: " + m.group(2));
      }
      if (tokens < 1 || period.isZero() || period.isNegative()) {
        throw new IllegalArgumentException("a new-key limit needs tokens >= 1 and a period > 0");
      }
      return new Limit(tokens, period);
    }
  }

  /** The answer for one new key: allowed, or refused with how long until a token is back. */
  record Decision(boolean allowed, Duration retryAfter) {}

  private final Function<String, Optional<String>> config;
  private final Map<String, Bucket> buckets =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
          return size() > MAX_BUCKETS;
        }
      };

  /**
   * @param config a property's value by name, if set
   */
  NewKeyLimits(Function<String, Optional<String>> config) {
    this.config = config;
  }

  /** Takes one token for a new key of (tenant, operation). */
  Decision tryAcquire(String tenant, String operation) {
    Bucket bucket = bucket(tenant, operation);
    if (bucket == null) {
      return new Decision(true, Duration.ZERO);
    }
    ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
    return probe.isConsumed()
        ? new Decision(true, Duration.ZERO)
        : new Decision(false, Duration.ofNanos(probe.getNanosToWaitForRefill()));
  }

  /** Gives back the token of a key that turned out not to be new (a concurrent first use). */
  void giveBack(String tenant, String operation) {
    Bucket bucket;
    synchronized (buckets) {
      bucket = buckets.get(scope(tenant, operation));
    }
    if (bucket != null) {
      bucket.addTokens(1);
    }
  }

  /**
   * The limit that applies to (tenant, operation): the first valid one of the three properties,
   * else the default. An invalid value is logged and skipped.
   */
  Limit limit(String tenant, String operation) {
    String[] names = {
      TENANT_PREFIX + tenant, "idempotency.operations." + operation + ".new-keys", GLOBAL
    };
    for (String name : names) {
      Optional<String> value = config.apply(name).filter(v -> !v.isBlank());
      if (value.isPresent()) {
        try {
          return Limit.parse(value.get());
        } catch (IllegalArgumentException e) {
          LOG.severe(() -> name + " is ignored: " + e.getMessage());
        }
      }
    }
    return Limit.parse(DEFAULT_LIMIT);
  }

  private Bucket bucket(String tenant, String operation) {
    String scope = scope(tenant, operation);
    synchronized (buckets) {
      Bucket bucket = buckets.get(scope);
      if (bucket == null && !buckets.containsKey(scope)) {
        Limit limit = limit(tenant, operation);
        bucket =
            limit.unlimited()
                ? null
                : Bucket.builder()
                    .addLimit(
                        l ->
                            l.capacity(limit.tokens()).refillGreedy(limit.tokens(), limit.period()))
                    .build();
        buckets.put(scope, bucket);
      }
      return bucket;
    }
  }

  private static String scope(String tenant, String operation) {
    return tenant.length() + ":" + tenant + "\n" + operation;
  }
}
