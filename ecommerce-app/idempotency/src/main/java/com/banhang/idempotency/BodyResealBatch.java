package com.banhang.idempotency;

import java.util.Map;

/**
 * One batch of re-sealing stored response bodies with the keyring's current key
 * (docs/idempotency.md, "Rotating a key"): what it read, what it wrote, and how many rows are still
 * sealed with an older key of the ring once it committed.
 *
 * @param sealingKeyId the key the batch sealed with; null when no body key is configured
 * @param resealed rows now sealed with {@code sealingKeyId}
 * @param changedMeanwhile rows read but not written because they changed after the read (a
 *     completion, a takeover, another re-seal): left as the other writer left them
 * @param unreadable rows read whose body would not open (altered, moved from another row): never
 *     re-sealed, since a body that cannot be trusted must stay refused
 * @param resealedFrom how many of the re-sealed rows each old key id had sealed
 * @param remaining rows still sealed with a key of the ring other than {@code sealingKeyId}
 */
public record BodyResealBatch(
    String sealingKeyId,
    int resealed,
    int changedMeanwhile,
    int unreadable,
    Map<String, Integer> resealedFrom,
    long remaining) {

  public BodyResealBatch {
    resealedFrom = Map.copyOf(resealedFrom);
  }

  /** Rows the batch read: re-sealed, changed meanwhile, or unreadable. */
  public int examined() {
    return resealed + changedMeanwhile + unreadable;
  }
}
