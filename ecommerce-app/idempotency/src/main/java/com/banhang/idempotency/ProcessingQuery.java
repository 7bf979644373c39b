package com.banhang.idempotency;

import java.time.Duration;

/**
 * Which processing rows an operator lists; a null field matches anything.
 *
 * @param tenant exact tenant
 * @param operation exact operation
 * @param lastCheck the last check recorded on the row; {@link #NEVER_CHECKED} for rows never
 *     checked
 * @param minAge only rows claimed at least this long ago, by the database's clock
 */
public record ProcessingQuery(String tenant, String operation, String lastCheck, Duration minAge) {

  /** Selects rows on which no check was ever recorded. */
  public static final String NEVER_CHECKED = "NEVER";
}
