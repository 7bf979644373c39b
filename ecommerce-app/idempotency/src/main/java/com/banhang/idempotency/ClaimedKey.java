package com.banhang.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One owned claim: the key's scope (tenant, operation, key) and the attempt number that fences
 * every write of the owner. A worker whose lease was taken over holds a stale attempt and can no
 * longer complete or release the key.
 */
public record ClaimedKey(String tenant, String operation, String key, int attempt) {

  public ClaimedKey {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(key, "key");
  }

  /**
   * A stable reference derived from the scope alone (not the attempt), for keys handed on to
   * another system such as a payment gateway: every attempt, and reconciliation, sends the same
   * one, so the other system deduplicates them.
   */
  public String derivedReference(String prefix) {
    try {
      MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
      for (String part : new String[] {tenant, operation, key}) {
        byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
        sha256.update(java.nio.ByteBuffer.allocate(4).putInt(bytes.length).array());
        sha256.update(bytes);
      }
      return prefix + HexFormat.of().formatHex(sha256.digest(), 0, 24);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
