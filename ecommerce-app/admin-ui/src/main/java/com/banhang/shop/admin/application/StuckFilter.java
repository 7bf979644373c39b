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
 */
public record StuckFilter(String tenant, String operation, String lastCheck, Duration minAge) {

  /** The {@code lastCheck} value that selects keys never checked. */
  public static final String NEVER_CHECKED = "NEVER";

  public static StuckFilter olderThan(Duration minAge) {
    return new StuckFilter(null, null, null, minAge);
  }
}
