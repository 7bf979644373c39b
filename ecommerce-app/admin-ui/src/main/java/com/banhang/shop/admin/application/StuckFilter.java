package com.banhang.shop.admin.application;

import java.time.Duration;

/**
 * Which processing keys an operator wants to see; a null field matches anything.
 *
 * @param tenant exact tenant (the customer's user name)
 * @param operation exact operation, e.g. {@code payments.charge}
 * @param lastCheck the last reconciliation finding, e.g. {@code NEEDS_OPERATOR}; {@link
 *     #NEVER_CHECKED} for keys reconciliation never looked at
 * @param minAge only keys claimed at least this long ago (the console's default is two minutes)
 * @param claimedFrom only keys claimed at or after this instant
 * @param claimedBefore only keys claimed before this instant
 * @param sort the order, on the server; null is oldest first
 */
public record StuckFilter(
    String tenant,
    String operation,
    String lastCheck,
    Duration minAge,
    java.time.Instant claimedFrom,
    java.time.Instant claimedBefore,
    Sort sort) {

  /** The {@code lastCheck} value that selects keys never checked. */
  public static final String NEVER_CHECKED = "NEVER";

  /** Any claim time, oldest first. */
  public StuckFilter(String tenant, String operation, String lastCheck, Duration minAge) {
    this(tenant, operation, lastCheck, minAge, null, null, null);
  }

  /** The same keys in another order. */
  public StuckFilter sortedBy(Sort order) {
    return new StuckFilter(tenant, operation, lastCheck, minAge, claimedFrom, claimedBefore, order);
  }

  public static StuckFilter olderThan(Duration minAge) {
    return new StuckFilter(null, null, null, minAge);
  }

  /** The columns the listing sorts by, on the server. */
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

  /** One column, either way; keys never checked come last both ways. */
  public record Sort(Column column, boolean descending) {
    public Sort {
      java.util.Objects.requireNonNull(column, "column");
    }
  }
}
