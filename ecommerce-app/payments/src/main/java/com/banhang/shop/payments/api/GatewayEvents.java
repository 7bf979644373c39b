package com.banhang.shop.payments.api;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The events the processor sent by webhook, for the operator console (docs/payments.md, "Webhooks
 * in"): listed with their verification and what their processing did, per payment, counted by
 * status; a parked one retried, a flagged one marked handled. Nothing here moves money: a flagged
 * event is settled at the processor, and its mark records that. Implemented in the application
 * layer.
 */
public interface GatewayEvents {

  /**
   * Events, newest delivery first.
   *
   * @param status only those in this status ({@link GatewayEventView.Status}'s name); null: all
   */
  List<GatewayEventView> page(String status, int offset, int limit);

  /** How many {@link #page} lists in all for {@code status} (null: all). */
  long count(String status);

  /** One event, whatever its status; empty when there is no such event. */
  Optional<GatewayEventView> find(String provider, String eventId);

  /**
   * What waits for an operator, newest delivery first: parked events (an operator may retry them)
   * and flagged ones nobody has marked handled.
   */
  List<GatewayEventView> needingOperator(int offset, int limit);

  /** How many flagged events nobody has marked handled yet (the console's Overview). */
  long countFlaggedUnhandled();

  /** The events matched with a payment, oldest first: its part of the payment's timeline. */
  List<GatewayEventView> ofPayment(String paymentId);

  /** How many events are in each status (every status named, zero included). */
  Map<String, Long> countsByStatus();

  /**
   * Processes every pending event that is due, one transaction each: what the schedule runs, on
   * every node (a received event is also processed at once, without waiting for it).
   *
   * @return how many were processed
   */
  int processDue();

  /**
   * Processes a parked event again now: it becomes pending and is processed at once.
   *
   * @return false when there is no such event, or it is not parked
   */
  boolean retry(String provider, String eventId);

  /**
   * Marks a flagged event handled by {@code operator}, with their reason: one conditional update
   * (the first of two concurrent marks wins), in one transaction with {@code audit}.
   *
   * @param audit run just before the mark commits, in its transaction (the console's audit entry):
   *     if it throws, nothing is marked and the exception goes on to the caller. Not run when
   *     nothing was marked.
   * @return false when there is no such event, it is not flagged, or it was marked already
   */
  boolean markHandled(
      String provider, String eventId, String operator, String reason, Runnable audit);
}
