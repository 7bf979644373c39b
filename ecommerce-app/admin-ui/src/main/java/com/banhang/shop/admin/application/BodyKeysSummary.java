package com.banhang.shop.admin.application;

import java.time.Instant;
import java.util.List;

/**
 * What the Retention view shows of the stored bodies' keys: how many rows still need an old body
 * key, and the last re-seal runs (docs/operations.md, "Re-sealing stored bodies").
 *
 * @param rowsWithOldKeys rows whose body is sealed with a key of the ring other than the current
 *     one: an old key may leave the configuration once this is 0
 */
public record BodyKeysSummary(long rowsWithOldKeys, List<ResealRunView> lastResealRuns) {

  /** One re-seal run, on whichever node ran it. */
  public record ResealRunView(
      Instant startedAt,
      String node,
      String startedBy,
      String fromKeyIds,
      String toKeyId,
      int rowsResealed,
      long rowsRemaining,
      String status,
      String detail,
      long durationMillis) {}
}
