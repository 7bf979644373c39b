package com.banhang.events.webhooks;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The webhook tables, as the transport, the dispatcher and the operator use them. {@link
 * JdbcWebhookDeliveryStore} implements it on H2, PostgreSQL and SQL Server; "now" is always the
 * database's clock.
 */
public interface WebhookDeliveryStore {

  /**
   * Writes, in a short transaction of its own, one delivery of {@code body} per endpoint, due after
   * {@code firstAttemptIn}, unless that event already has a delivery to that endpoint. A delivery
   * to a disabled endpoint is written {@link DeliveryStatus#DISABLED}.
   *
   * @return how many deliveries were written
   */
  int record(
      String eventId,
      String tenantId,
      String body,
      Collection<String> endpoints,
      Duration firstAttemptIn);

  /**
   * Claims, in a short transaction of its own, at most {@code limit} due pending deliveries to the
   * given endpoints (none that is disabled) for {@code owner} for {@code lease}, counting one more
   * attempt on each. Rows another dispatcher is claiming at the same moment are skipped.
   */
  List<ClaimedDelivery> claim(
      String owner, Collection<String> endpoints, int limit, Duration lease);

  /** Logs the attempt and records the delivery as delivered, if {@code owner} still holds it. */
  boolean markDelivered(ClaimedDelivery delivery, String owner, AttemptResult attempt);

  /**
   * Logs the attempt and makes the delivery due again after {@code retryIn}. Fenced by the lease.
   */
  boolean markFailed(
      ClaimedDelivery delivery, String owner, AttemptResult attempt, Duration retryIn);

  /** Logs the attempt and parks the delivery for an operator. Fenced by the lease. */
  boolean markParked(ClaimedDelivery delivery, String owner, AttemptResult attempt);

  /**
   * Logs the attempt and disables the delivery's endpoint for {@code reason}: this delivery and the
   * endpoint's other pending ones become {@link DeliveryStatus#DISABLED}.
   */
  boolean markGone(ClaimedDelivery delivery, String owner, AttemptResult attempt, String reason);

  /** The parked deliveries, oldest first. */
  List<WebhookDelivery> parked(int limit);

  /** An event's deliveries, one per endpoint. */
  List<WebhookDelivery> deliveriesOf(String eventId);

  Optional<WebhookDelivery> find(String deliveryId);

  /** A delivery's attempts, oldest first. */
  List<DeliveryAttempt> attempts(String deliveryId);

  /** Makes a parked delivery pending, due now, with its attempts counted from zero. */
  boolean retry(String deliveryId);

  /**
   * Disables {@code endpoint}: nothing is sent to it, its pending deliveries become {@link
   * DeliveryStatus#DISABLED}.
   *
   * @return false if it was disabled already (the first reason stays)
   */
  boolean disable(String endpoint, String reason);

  /**
   * Re-enables {@code endpoint}: its disabled deliveries become pending, due now, with their
   * attempts counted from zero.
   *
   * @return false if it was not disabled
   */
  boolean enable(String endpoint);

  /** The disabled endpoints, by name. */
  List<DisabledEndpoint> disabledEndpoints();
}
