package com.banhang.idempotency;

import java.time.Duration;
import java.time.Instant;

/**
 * Which processing rows an operator lists, and in which order; a null filter matches anything.
 *
 * @param tenant exact tenant
 * @param operation exact operation
 * @param lastCheck the last check recorded on the row; {@link #NEVER_CHECKED} for rows never
 *     checked
 * @param minAge only rows claimed at least this long ago, by the database's clock
 * @param claimedFrom only rows claimed at or after this instant
 * @param claimedBefore only rows claimed before this instant
 * @param sort the order of the listing; null is {@link Sort#OLDEST_FIRST}
 */
public record ProcessingQuery(
    String tenant,
    String operation,
    String lastCheck,
    Duration minAge,
    Instant claimedFrom,
    Instant claimedBefore,
    Sort sort) {

  /** Selects rows on which no check was ever recorded. */
  public static final String NEVER_CHECKED = "NEVER";

  public ProcessingQuery {
    sort = sort == null ? Sort.OLDEST_FIRST : sort;
  }

  /** Any claim time, oldest first. */
  public ProcessingQuery(String tenant, String operation, String lastCheck, Duration minAge) {
    this(tenant, operation, lastCheck, minAge, null, null, Sort.OLDEST_FIRST);
  }

  /** The columns an operator may sort the listing by. */
  public enum Column {
    TENANT,
    OPERATION,
    KEY,
    CLAIMED_AT,
    LEASE_UNTIL,
    ATTEMPT,
    OUTCOME_UNKNOWN,
    LAST_CHECK,
    LAST_CHECKED_AT
  }

  /**
   * One column, ascending or descending; rows equal on it keep tenant and key order, so that pages
   * do not overlap. Rows without a value (never checked) come last either way.
   */
  public record Sort(Column column, boolean descending) {

    /** Claim time, oldest first: the order of a listing without one. */
    public static final Sort OLDEST_FIRST = new Sort(Column.CLAIMED_AT, false);

    public Sort {
      java.util.Objects.requireNonNull(column, "column");
    }
  }
}
