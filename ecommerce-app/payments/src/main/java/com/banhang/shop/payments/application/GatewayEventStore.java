package com.banhang.shop.payments.application;

import com.banhang.shop.payments.api.GatewayEventView;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * Where the processor's webhook events are kept (V20's {@code gateway_event}), keyed by (provider,
 * event id). Implemented in the infrastructure layer.
 */
public interface GatewayEventStore {

  /** An event as its first delivery brings it. */
  record Received(
      String provider,
      String eventId,
      String type,
      String chargeId,
      String gatewayKey,
      String payload,
      String verification,
      GatewayEventView.Status status,
      String detail,
      Instant at) {}

  /** An event taken for processing. */
  record Taken(String provider, String eventId, String payload, int attempts) {}

  /** The key of an event. */
  record Key(String provider, String eventId) {}

  /**
   * Keeps a received event once: a second delivery of the same (provider, event id) only counts one
   * more delivery. Each statement commits on its own; no transaction is needed.
   *
   * @return true when the event is new; false for a duplicate
   */
  boolean receive(Received event);

  /** Pending events due at {@code now}, oldest due first. */
  List<Key> due(Instant now, int limit);

  /**
   * Takes a pending event due at {@code now} for processing, in the caller's transaction: its row
   * stays locked until that transaction ends, so a second processor (another node, the schedule)
   * waits and then finds it processed.
   *
   * @return empty when it is not pending, or not due
   */
  Optional<Taken> take(String provider, String eventId, Instant now);

  /** Ends the processing of a taken event: settled, confirmed, flagged or parked. */
  void finish(Key key, GatewayEventView.Status status, String detail, String paymentId, Instant at);

  /** Leaves a taken event pending until {@code next}, with why. */
  void later(Key key, Instant next, String detail, String paymentId);

  /**
   * Counts a failed processing of a pending event in a transaction of its own: due again at {@code
   * dueAfter.apply(failures)}, or parked once it failed {@code maxAttempts} times.
   */
  void failed(Key key, IntFunction<Instant> dueAfter, String detail, int maxAttempts, Instant at);

  List<GatewayEventView> page(GatewayEventView.Status status, int offset, int limit);

  long count(GatewayEventView.Status status);

  List<GatewayEventView> ofPayment(String paymentId);

  Optional<GatewayEventView> find(Key key);

  /** Parked events and flagged ones not marked handled, newest delivery first. */
  List<GatewayEventView> needingOperator(int offset, int limit);

  long countFlaggedUnhandled();

  Map<GatewayEventView.Status, Long> countsByStatus();

  /** A parked event pending again, due at {@code now}. @return false if none was parked */
  boolean unpark(Key key, Instant now);

  /** Marks a flagged, unmarked event handled. @return false if none matched */
  boolean markHandled(Key key, String operator, String reason, Instant at);
}
