package com.banhang.idempotency.internal;

import com.banhang.idempotency.jdbc.SharedTokenBuckets;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rate limit of new keys per tenant and operation (docs/idempotency.md, "Rate limit of new
 * keys"): a Bucket4j token bucket per (tenant, operation) in this server's memory, and, when the
 * limit is shared ({@code idempotency.new-keys.shared}), the same bucket in the database that every
 * server takes from (docs/scaling.md, "The new-key limit of the cluster"). Only a key that has no
 * row yet costs a token; replays, duplicates and refused requests never do.
 *
 * <p>The bucket in memory is a pre-check: a new key it refuses is refused without a round trip to
 * the database, so a tenant far over its limit costs the database nothing. Only a key it allows
 * asks the shared bucket, whose answer is final. The local token stays taken when the shared bucket
 * refuses, so a tenant the cluster refuses soon empties this server's bucket too and is then
 * refused here. When the shared bucket cannot answer (the database is down or slow, the data source
 * or the table is missing), the key is decided by the bucket in memory alone: each server then
 * allows up to the limit, as before the shared bucket, and a warning says so at most once a minute.
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

  /**
   * The buckets every server shares ({@link SharedTokenBuckets}): each method throws when the
   * database cannot answer.
   */
  interface SharedBuckets {

    /** Empty when a token of bucket {@code name} was taken, else the wait until one is back. */
    Optional<Duration> tryTake(String name, long tokens, Duration period);

    void giveBack(String name, long tokens, Duration period);

    /** Deletes up to {@code batchSize} buckets full again; returns how many went. */
    int removeFull(int batchSize);

    /** The buckets of the database behind {@code buckets}. */
    static SharedBuckets over(SharedTokenBuckets buckets) {
      return new SharedBuckets() {
        @Override
        public int removeFull(int batchSize) {
          return buckets.removeFull(batchSize);
        }

        @Override
        public Optional<Duration> tryTake(String name, long tokens, Duration period) {
          return buckets.tryTake(name, tokens, period);
        }

        @Override
        public void giveBack(String name, long tokens, Duration period) {
          buckets.giveBack(name, tokens, period);
        }
      };
    }
  }

  /** After a failure to make the shared buckets (no data source), how long before trying again. */
  static final Duration SHARED_RETRY = Duration.ofSeconds(30);

  private static final long WARNING_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

  /** A bucket in memory and its limit; a null bucket is unlimited. */
  private record Scoped(Bucket bucket, Limit limit) {}

  private final Function<String, Optional<String>> config;
  private final Supplier<SharedBuckets> sharedFactory;
  private volatile SharedBuckets shared;
  private volatile long sharedRetryAt = System.nanoTime();
  private final AtomicLong lastWarning = new AtomicLong(System.nanoTime() - WARNING_EVERY_NANOS);
  private final Map<String, Scoped> buckets =
      new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Scoped> eldest) {
          return size() > MAX_BUCKETS;
        }
      };

  /**
   * A limit of each server on its own.
   *
   * @param config a property's value by name, if set
   */
  NewKeyLimits(Function<String, Optional<String>> config) {
    this(config, null);
  }

  /**
   * @param config a property's value by name, if set
   * @param sharedFactory makes the shared buckets on first use (tried again {@link #SHARED_RETRY}
   *     after it throws); null for a limit of each server on its own
   */
  NewKeyLimits(Function<String, Optional<String>> config, Supplier<SharedBuckets> sharedFactory) {
    this.config = config;
    this.sharedFactory = sharedFactory;
  }

  /** Takes one token for a new key of (tenant, operation): here first, then from the shared one. */
  Decision tryAcquire(String tenant, String operation) {
    String scope = scope(tenant, operation);
    Scoped scoped = bucket(scope, tenant, operation);
    if (scoped.bucket() == null) {
      return new Decision(true, Duration.ZERO);
    }
    ConsumptionProbe probe = scoped.bucket().tryConsumeAndReturnRemaining(1);
    if (!probe.isConsumed()) {
      return new Decision(false, Duration.ofNanos(probe.getNanosToWaitForRefill()));
    }
    SharedBuckets sharedBuckets = shared();
    if (sharedBuckets == null) {
      return new Decision(true, Duration.ZERO);
    }
    Optional<Duration> wait;
    try {
      wait = sharedBuckets.tryTake(scope, scoped.limit().tokens(), scoped.limit().period());
    } catch (RuntimeException e) {
      warn("the shared new-key limit did not answer; this server's limit alone decides", e);
      return new Decision(true, Duration.ZERO);
    }
    return wait.map(w -> new Decision(false, w)).orElseGet(() -> new Decision(true, Duration.ZERO));
  }

  /** Gives back the token of a key that turned out not to be new (a concurrent first use). */
  void giveBack(String tenant, String operation) {
    String scope = scope(tenant, operation);
    Scoped scoped;
    synchronized (buckets) {
      scoped = buckets.get(scope);
    }
    if (scoped == null || scoped.bucket() == null) {
      return;
    }
    scoped.bucket().addTokens(1);
    SharedBuckets sharedBuckets = shared();
    if (sharedBuckets != null) {
      try {
        sharedBuckets.giveBack(scope, scoped.limit().tokens(), scoped.limit().period());
      } catch (RuntimeException e) {
        warn("a token could not be given back to the shared new-key limit", e);
      }
    }
  }

  /**
   * Deletes the shared buckets that are full again, in batches of {@code batchSize}, at most {@code
   * maxBatches} of them (docs/scaling.md, "The new-key limit of the cluster"): a full bucket is
   * what a missing one starts as, so this changes no decision and keeps the table from growing with
   * every tenant, operation and limit there ever was. Part of the retention run.
   *
   * @return how many went; 0 when the limit is per server
   * @throws RuntimeException when the database failed; the next run tries again
   */
  int removeFullSharedBuckets(int batchSize, int maxBatches) {
    SharedBuckets sharedBuckets = shared();
    if (sharedBuckets == null) {
      return 0;
    }
    int removed = 0;
    for (int batch = 0; batch < maxBatches; batch++) {
      int deleted = sharedBuckets.removeFull(batchSize);
      removed += deleted;
      if (deleted < batchSize) {
        break;
      }
    }
    return removed;
  }

  /** The shared buckets, made on first use; null when the limit is per server or they failed. */
  private SharedBuckets shared() {
    if (sharedFactory == null) {
      return null;
    }
    SharedBuckets current = shared;
    if (current != null || System.nanoTime() - sharedRetryAt < 0) {
      return current;
    }
    synchronized (this) {
      if (shared == null && System.nanoTime() - sharedRetryAt >= 0) {
        try {
          shared = sharedFactory.get();
        } catch (RuntimeException e) {
          sharedRetryAt = System.nanoTime() + SHARED_RETRY.toNanos();
          warn("no shared new-key limit (tried again in " + SHARED_RETRY + ")", e);
        }
      }
      return shared;
    }
  }

  /** Logs at most one warning a minute, so a database that is down does not flood the log. */
  private void warn(String message, RuntimeException e) {
    long last = lastWarning.get();
    long now = System.nanoTime();
    if (now - last >= WARNING_EVERY_NANOS && lastWarning.compareAndSet(last, now)) {
      LOG.log(Level.WARNING, message + ": " + e.getMessage(), e);
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

  private Scoped bucket(String scope, String tenant, String operation) {
    synchronized (buckets) {
      Scoped scoped = buckets.get(scope);
      if (scoped == null) {
        Limit limit = limit(tenant, operation);
        Bucket bucket =
            limit.unlimited()
                ? null
                : Bucket.builder()
                    .addLimit(
                        l ->
                            l.capacity(limit.tokens()).refillGreedy(limit.tokens(), limit.period()))
                    .build();
        scoped = new Scoped(bucket, limit);
        buckets.put(scope, scoped);
      }
      return scoped;
    }
  }

  private static String scope(String tenant, String operation) {
    return tenant.length() + ":" + tenant + "\n" + operation;
  }
}
