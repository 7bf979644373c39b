package com.banhang.shop.client;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * One business intent (create this order, pay that order once) as it is sent on every try: the
 * request's method, path and exact body bytes, and the {@code Idempotency-Key} that binds them.
 * Stored before the first try so that a client that restarts sends the same request under the same
 * key, never a new key, which the shop would take for a new intent.
 *
 * @param id the intent's own id (a UUID), a safe file name; not the key, which the caller may
 *     choose and which may hold any printable character
 * @param idempotencyKey the key sent on every try
 * @param method the HTTP method, {@code POST}
 * @param path the request path from the shop's base URI, such as {@code /api/v1/orders}
 * @param user the HTTP Basic user the intent was started as, empty without credentials: the shop
 *     scopes keys by tenant, so the same key sent as another user would be another intent
 * @param body the request body, byte for byte as first sent; the shop answers 422 {@code
 *     idempotency-key-reused} to the same key with other bytes
 * @param createdAt when the intent was started
 * @param keyExpiresAt the earliest {@code Idempotency-Key-Expires} the shop has answered for the
 *     key, if any: past it the shop forgets the key, and the same request would be a new one
 */
public record Intent(
    String id,
    String idempotencyKey,
    String method,
    String path,
    Optional<String> user,
    byte[] body,
    Instant createdAt,
    Optional<Instant> keyExpiresAt) {

  public Intent {
    Objects.requireNonNull(id, "id");
    IntentKeys.requireValid(idempotencyKey);
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(user, "user");
    body = Objects.requireNonNull(body, "body").clone();
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(keyExpiresAt, "keyExpiresAt");
  }

  /** A copy of the body: the intent's bytes never change. */
  @Override
  public byte[] body() {
    return body.clone();
  }

  /** Whether the shop has said the key expires at or before {@code now}. */
  public boolean keyExpiredAt(Instant now) {
    return keyExpiresAt.map(expiry -> !expiry.isAfter(now)).orElse(false);
  }

  /**
   * This intent with {@code expiry} remembered if it is earlier than the one known: the earliest is
   * the safe one, since a later answer's header can be an estimate for a key with no row yet.
   */
  Intent withKeyExpiry(Instant expiry) {
    if (keyExpiresAt.isPresent() && !expiry.isBefore(keyExpiresAt.get())) {
      return this;
    }
    return new Intent(id, idempotencyKey, method, path, user, body, createdAt, Optional.of(expiry));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Intent that
        && id.equals(that.id)
        && idempotencyKey.equals(that.idempotencyKey)
        && method.equals(that.method)
        && path.equals(that.path)
        && user.equals(that.user)
        && Arrays.equals(body, that.body)
        && createdAt.equals(that.createdAt)
        && keyExpiresAt.equals(that.keyExpiresAt);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        id, idempotencyKey, method, path, user, Arrays.hashCode(body), createdAt, keyExpiresAt);
  }

  /** Without the body, which may be large; with the key, which is needed to trace a retry. */
  @Override
  public String toString() {
    return "Intent["
        + id
        + ", key "
        + idempotencyKey
        + ", "
        + method
        + " "
        + path
        + ", "
        + body.length
        + " bytes, created "
        + createdAt
        + keyExpiresAt.map(expiry -> ", key expires " + expiry).orElse("")
        + "]";
  }
}
