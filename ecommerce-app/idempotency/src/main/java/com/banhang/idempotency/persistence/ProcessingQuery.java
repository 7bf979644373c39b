package com.banhang.idempotency.persistence;

import java.time.Instant;

/**
 * Which processing rows an operator lists; a null field matches anything.
 *
 * @param tenant exact tenant
 * @param operation exact operation
 * @param lastCheck the last check recorded on the row; {@link #NEVER_CHECKED} for rows never
 *     checked
 * @param claimedBefore only rows claimed before this instant
 */
public record ProcessingQuery(
    String tenant, String operation, String lastCheck, Instant claimedBefore) {

  /** Selects rows on which no check was ever recorded. */
  public static final String NEVER_CHECKED = "NEVER";
}
