package com.banhang.events.webhooks;

/** Where a webhook delivery stands. */
public enum DeliveryStatus {
  /** Due now or later; the dispatcher sends it. */
  PENDING,
  /** The subscriber answered 2xx. */
  DELIVERED,
  /** Every attempt of the retry schedule failed, or its target was refused: an operator decides. */
  PARKED,
  /** Its endpoint is disabled (a 410 Gone, or an operator): it waits for the endpoint. */
  DISABLED
}
