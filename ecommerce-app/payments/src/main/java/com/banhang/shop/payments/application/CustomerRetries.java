package com.banhang.shop.payments.application;

import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.idempotency.IdempotencyEvent.Kind;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.shop.payments.api.TimelineEntry;
import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.domain.model.PaymentRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Writes the customer's retries of a payments.charge key to the payment timeline (CUSTOMER_RETRY),
 * with what each was answered: a replay of the stored answer, 409 while the first attempt runs or
 * while its outcome is unknown, 422 for a key used with another request.
 *
 * <p><b>Coalesced.</b> A client in a retry loop (or a storm of them) must not turn the timeline
 * into a log of every request: per node, at most one entry per key and kind of answer per {@link
 * #WINDOW}, remembered in a map bounded to {@link #KEYS} keys (the oldest forgotten first, which at
 * worst writes one entry more). Several nodes may each write one per window.
 *
 * <p><b>Never in the way.</b> The library fires its events synchronously on the request thread,
 * while it answers: the entry is written in a transaction of its own, and any failure (the key's
 * read, the insert, the commit) is logged and swallowed, so the retry's answer is never changed.
 */
@ApplicationScoped
public class CustomerRetries {

  /** At most one entry per key and kind of answer per this long, per node. */
  static final Duration WINDOW = Duration.ofSeconds(30);

  /** How many (key, kind) pairs the node remembers at most. */
  static final int KEYS = 10_000;

  private static final Set<Kind> RETRIES =
      EnumSet.of(Kind.REPLAYED, Kind.IN_PROGRESS, Kind.KEY_REUSED, Kind.OUTCOME_UNKNOWN);

  private static final Logger LOG = Logger.getLogger(CustomerRetries.class.getName());

  @Inject Timeline timeline;
  @Inject PaymentRepository payments;
  @Inject IdempotencyKeys keys;

  Clock clock = Clock.systemUTC();

  /** When each (tenant, key, kind) was last written, oldest first; guarded by itself. */
  private final Map<String, Instant> written =
      new LinkedHashMap<>(256, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Instant> eldest) {
          return size() > KEYS;
        }
      };

  void retried(@Observes IdempotencyEvent event) {
    try {
      if (!PayOrder.OPERATION.equals(event.operation())
          || !RETRIES.contains(event.kind())
          || event.tenant() == null
          || event.key() == null
          || !due(event)) {
        return;
      }
      write(event);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "could not write a customer's retry to the payment timeline", e);
    }
  }

  /**
   * Whether this (key, kind) was not written within the window; if so, it counts as written now.
   */
  boolean due(IdempotencyEvent event) {
    Instant now = clock.instant();
    String id = event.tenant().length() + ":" + event.tenant() + event.key() + "|" + event.kind();
    synchronized (written) {
      Instant last = written.get(id);
      if (last != null && last.plus(WINDOW).isAfter(now)) {
        return false;
      }
      // Removed first, so that a key written again moves to the end (the newest).
      written.remove(id);
      written.put(id, now);
      return true;
    }
  }

  private void write(IdempotencyEvent event) {
    Optional<Payment> latest = payments.findLatestByKey(event.tenant(), event.key());
    timeline.alone(
        event.tenant(),
        event.key(),
        latest.map(Payment::id).orElse(null),
        TimelineEntry.Kind.CUSTOMER_RETRY,
        Timeline.CUSTOMER,
        answered(event),
        clock.instant());
  }

  /** What the retry was answered, in words. */
  private String answered(IdempotencyEvent event) {
    String coalesced = " (further retries like it within " + WINDOW.toSeconds() + " s not shown)";
    return switch (event.kind()) {
      case REPLAYED -> "replayed the stored " + storedStatus(event) + coalesced;
      case IN_PROGRESS -> "409: still running (the first request with the key)" + coalesced;
      case OUTCOME_UNKNOWN -> "409: outcome unknown, being reconciled" + coalesced;
      case KEY_REUSED -> "422: key used for another request" + coalesced;
      default -> event.kind().name() + coalesced;
    };
  }

  /** The status of the key's stored answer, or "answer" when it cannot be read. */
  private String storedStatus(IdempotencyEvent event) {
    try {
      return keys.find(event.tenant(), PayOrder.OPERATION, event.key())
          .map(IdempotencyRecord::response)
          .map(response -> String.valueOf(response.status()))
          .orElse("answer");
    } catch (RuntimeException e) {
      return "answer";
    }
  }
}
