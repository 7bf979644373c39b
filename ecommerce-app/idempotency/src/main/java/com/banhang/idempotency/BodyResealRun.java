package com.banhang.idempotency;

import java.time.Instant;
import java.util.Set;
import java.util.TreeSet;

/**
 * One run of the re-seal of stored response bodies (batches of {@link BodyResealBatch}), kept so
 * that operators see who moved bodies from which keys to which, and whether an old key may now
 * leave the ring (docs/idempotency.md, "Rotating a key").
 *
 * @param node the server that ran it
 * @param startedBy the operator's name, or what started it
 * @param fromKeyIds the key ids the re-sealed rows had been sealed with
 * @param toKeyId the key id they are sealed with now; null when no body key is configured
 * @param rowsRemaining rows still sealed with an old key of the ring after the run; -1 when a
 *     failed run could not tell
 * @param detail why a run is {@link Status#INCOMPLETE} or {@link Status#FAILED}; null otherwise
 */
public record BodyResealRun(
    Instant startedAt,
    String node,
    String startedBy,
    Set<String> fromKeyIds,
    String toKeyId,
    int rowsResealed,
    int rowsChangedMeanwhile,
    int rowsUnreadable,
    long rowsRemaining,
    Status status,
    String detail,
    long durationMillis) {

  public BodyResealRun {
    fromKeyIds = Set.copyOf(fromKeyIds);
  }

  /** The key ids sealed from, sorted and comma-separated, as the run table stores them. */
  public String fromKeyIdsText() {
    return String.join(",", new TreeSet<>(fromKeyIds));
  }

  /** How a run ended. */
  public enum Status {
    /** No row is sealed with an old key of the ring any more: old keys may leave the ring. */
    COMPLETE,
    /**
     * Rows remain with an old key: the run reached its most batches, or only rows it may not
     * re-seal (unreadable, changed meanwhile) were left. Run it again; see the detail.
     */
    INCOMPLETE,
    /** A batch failed (the database, the keyring); batches before it stay committed. */
    FAILED
  }
}
