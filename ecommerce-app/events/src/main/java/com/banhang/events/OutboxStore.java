package com.banhang.events;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The outbox's and the inbox's tables, as the relay and the recorders use them. The JDBC store
 * ({@code com.banhang.events.jdbc}) implements it once per database; an application does not call
 * it directly.
 */
public interface OutboxStore {

  /**
   * Inserts {@code event} as the next of its aggregate, in the caller's transaction.
   *
   * @return the new event's id
   */
  String append(NewEvent event);

  /**
   * Claims, in a short transaction of its own, at most {@code limit} due events for {@code owner}
   * for {@code lease}: unpublished, not parked, not leased to anyone else (or the lease ran out),
   * and each the lowest unpublished one of its aggregate. Rows another relay is claiming at the
   * same moment are skipped, not waited for.
   */
  List<OutboxEvent> claim(String owner, int limit, Duration lease);

  /** Records {@code eventId} as published, if {@code owner} still holds its lease. */
  boolean markPublished(String eventId, String owner);

  /**
   * Records a failed publication: the event is due again after {@code retryAfter}, or parked for an
   * operator when {@code park} is true. Fenced by {@code owner}'s lease.
   */
  boolean markFailed(String eventId, String owner, String error, Duration retryAfter, boolean park);

  /** The parked events, oldest first, for the operator. */
  List<ParkedEvent> parked(int limit);

  /** Makes a parked event due again now, with its attempts counted from zero. */
  boolean unpark(String eventId);

  /** An event by id, published or not. */
  Optional<StoredEvent> find(String eventId);

  /**
   * Deletes at most {@code limit} events published more than {@code age} ago, never the newest
   * event of an aggregate (its sequence continues from it).
   *
   * @return how many were deleted
   */
  int purgePublished(Duration age, int limit);

  /**
   * Inserts ({@code source}, {@code eventId}) into the inbox in the caller's transaction unless it
   * is there; waits for a concurrent insert of the same pair to commit or roll back.
   *
   * @return true if this call inserted it (the event is new to the consumer)
   */
  boolean receive(String source, String eventId);

  /** An event the relay gave up on, with the last error. */
  record ParkedEvent(OutboxEvent event, String lastError, java.time.Instant parkedAt) {}

  /** An event and where it stands. */
  record StoredEvent(
      OutboxEvent event,
      java.time.Instant publishedAt,
      java.time.Instant parkedAt,
      String lastError) {}
}
