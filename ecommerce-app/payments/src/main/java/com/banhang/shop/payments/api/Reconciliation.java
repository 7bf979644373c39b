package com.banhang.shop.payments.api;

import com.banhang.shop.payments.api.ReconciliationReport.Finding;
import java.time.Duration;

/**
 * Reconciliation of payments.charge keys left in processing (docs/payments.md, "Reconciliation"):
 * the gateway is asked for the charge under the payment's gateway key, and the key is completed
 * with the answer the client would have had, released, or left for an operator. What the schedule,
 * the operator REST API and the operator console call; implemented in the application layer.
 */
public interface Reconciliation {

  /** One run over the keys older than the configured minimum age (what the schedule runs). */
  ReconciliationReport reconcileDueKeys();

  /** One run over the oldest keys claimed more than {@code minimumAge} ago, except parked ones. */
  ReconciliationReport reconcileKeysOlderThan(Duration minimumAge);

  /**
   * Examines one payments.charge key now, whatever its age and its last check (an operator's
   * "reconcile this key"), by the same rules as a run: a key whose lease still runs is left alone
   * ({@code STILL_RUNNING}), and so on. Its check is recorded and the event fired as in a run.
   *
   * @return {@link Finding#NOT_PROCESSING} when there is no such key in processing; then nothing
   *     was changed, recorded or fired
   */
  Finding reconcileKey(String tenant, String key);
}
