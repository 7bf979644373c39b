package com.banhang.shop.admin.application;

import java.time.Instant;

/**
 * An override resolution one operator proposed (resolve as charged although the gateway does not
 * know the charge) and that takes effect only when a different operator approves it.
 */
public record OverrideProposal(
    long id,
    Instant proposedAt,
    String proposedBy,
    KeyRef ref,
    String chargeId,
    String reason,
    String status,
    String decidedBy) {

  /** Waiting for a second operator. */
  public static final String PROPOSED = "PROPOSED";

  /** Approved by a second operator; the resolution was run. */
  public static final String APPROVED = "APPROVED";
}
