package com.banhang.shop.admin.security;

import com.banhang.shop.admin.application.ActionResult;
import com.banhang.shop.admin.application.AuditLog;
import com.banhang.shop.admin.application.LogText;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.EstimationProbe;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Throttles password guessing: at most {@code shop.login.max-failures-per-user} failed logins per
 * user name and {@code shop.login.max-failures-per-address} per client address within {@code
 * shop.login.failure-window} (Bucket4j token buckets refilled greedily over the window, in this
 * server's memory). While either bucket is empty every login of that user or from that address is
 * refused before its password is checked, the right password too; a successful login costs nothing,
 * so a busy client that authenticates every request is never throttled.
 *
 * <p>Counted at /metrics as {@code shop_login_failures_total{channel}} and {@code
 * shop_login_throttled_total{channel}} ({@code channel} is {@code api} or {@code console}); every
 * failed login, and the failure that starts a block, is written to the operator audit (actions
 * {@code login-failed} and {@code login-throttled}). Refusals during a block are only counted, so
 * that a flood of them cannot fill the audit.
 */
@ApplicationScoped
public class LoginThrottle {

  /** Where a login came from. */
  public enum Channel {
    API,
    CONSOLE;

    String tag() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Most buckets kept per kind; the least recently used is dropped beyond it. */
  static final int MAX_BUCKETS = 100_000;

  /** Longer user names are cut: a bucket key must not grow with what a client sends. */
  static final int MAX_USER_NAME = 256;

  private static final Logger LOG = Logger.getLogger(LoginThrottle.class.getName());

  private static final Metadata FAILURES =
      Metadata.builder()
          .withName("shop.login.failures")
          .withDescription("Failed logins (unknown user or wrong password), by channel")
          .build();
  private static final Metadata THROTTLED =
      Metadata.builder()
          .withName("shop.login.throttled")
          .withDescription(
              "Logins refused without checking the password: too many recent failures of that"
                  + " user or from that address, by channel")
          .build();

  @Inject
  @ConfigProperty(name = "shop.login.max-failures-per-user", defaultValue = "10")
  int maxFailuresPerUser;

  @Inject
  @ConfigProperty(name = "shop.login.max-failures-per-address", defaultValue = "30")
  int maxFailuresPerAddress;

  @Inject
  @ConfigProperty(name = "shop.login.failure-window", defaultValue = "PT5M")
  Duration window;

  @Inject MetricRegistry metrics;

  @Inject AuditLog audit;

  private final Map<String, Bucket> users = lru();
  private final Map<String, Bucket> addresses = lru();

  void registerAtStart(@Observes @Initialized(ApplicationScoped.class) Object started) {
    for (Channel channel : Channel.values()) {
      metrics.counter(FAILURES, tag(channel));
      metrics.counter(THROTTLED, tag(channel));
    }
  }

  /**
   * Whether a login of {@code user} from {@code address} is refused now, and for how long; counts
   * the refusal. Takes nothing from the buckets: only a failure does.
   */
  public Optional<Duration> refusal(String user, String address, Channel channel) {
    Duration wait = max(waitFor(users, user(user)), waitFor(addresses, address));
    if (wait.isZero()) {
      return Optional.empty();
    }
    metrics.counter(THROTTLED, tag(channel)).inc();
    return Optional.of(wait);
  }

  /** Records a failed login: one token from the user's bucket and one from the address's. */
  public void failed(String user, String address, Channel channel) {
    metrics.counter(FAILURES, tag(channel)).inc();
    boolean userBlocked = !take(users, user(user), maxFailuresPerUser);
    boolean addressBlocked = !take(addresses, address, maxFailuresPerAddress);
    String from = "from " + address + " (" + channel.tag() + ")";
    audit(user, "login-failed", from, ActionResult.refused("unknown user or wrong password"));
    if (userBlocked || addressBlocked) {
      String blocked =
          (userBlocked ? "user name" : "")
              + (userBlocked && addressBlocked ? " and " : "")
              + (addressBlocked ? "client address" : "");
      LOG.warning(
          () ->
              "logins throttled for "
                  + blocked
                  + " after failed login of "
                  + LogText.of(user)
                  + " "
                  + LogText.of(from));
      audit(
          user,
          "login-throttled",
          from,
          ActionResult.refused(
              "too many failed logins of this "
                  + blocked
                  + "; further logins refused for a while"));
    }
  }

  private void audit(String user, String action, String reason, ActionResult result) {
    try {
      audit.append(user(user), action, null, reason, result);
    } catch (RuntimeException e) {
      // A login must be answered even when the audit cannot be written; the log keeps the event.
      LOG.log(
          Level.WARNING,
          action + " of " + LogText.of(user) + " " + LogText.of(reason) + " not audited",
          e);
    }
  }

  /** True while the bucket still had a token for this failure (the block has not started). */
  private boolean take(Map<String, Bucket> buckets, String key, int capacity) {
    Bucket bucket;
    synchronized (buckets) {
      bucket = buckets.computeIfAbsent(key, k -> newBucket(capacity));
    }
    bucket.tryConsume(1);
    return bucket.getAvailableTokens() > 0;
  }

  private Duration waitFor(Map<String, Bucket> buckets, String key) {
    Bucket bucket;
    synchronized (buckets) {
      bucket = buckets.get(key);
    }
    if (bucket == null) {
      return Duration.ZERO;
    }
    EstimationProbe probe = bucket.estimateAbilityToConsume(1);
    return probe.canBeConsumed()
        ? Duration.ZERO
        : Duration.ofNanos(probe.getNanosToWaitForRefill());
  }

  private Bucket newBucket(int capacity) {
    int tokens = Math.max(1, capacity);
    return Bucket.builder().addLimit(l -> l.capacity(tokens).refillGreedy(tokens, window)).build();
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  private static String user(String user) {
    String name = user == null ? "" : user;
    return name.length() > MAX_USER_NAME ? name.substring(0, MAX_USER_NAME) : name;
  }

  private static Tag tag(Channel channel) {
    return new Tag("channel", channel.tag());
  }

  private static Map<String, Bucket> lru() {
    return new LinkedHashMap<>(256, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
        return size() > MAX_BUCKETS;
      }
    };
  }
}
