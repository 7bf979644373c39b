package com.banhang.idempotency;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A response as stored for replay: status, the allowlisted headers and the exact body bytes.
 *
 * <p>A response read from the store opens (decrypts) its body only when {@link #body()} is first
 * called, so that listings of rows (reconciliation, the console) never decrypt a body and one row
 * whose body cannot be opened never stops them; whoever returns the body meets the failure.
 */
public final class StoredResponse {

  private final int status;
  private final Map<String, String> headers;
  private final Supplier<byte[]> opener;
  private volatile byte[] body;

  /**
   * @param headers header name to value, in the order they were captured; never cookies or
   *     credentials
   */
  public StoredResponse(int status, Map<String, String> headers, byte[] body) {
    this.status = status;
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    this.body = body == null ? new byte[0] : body.clone();
    this.opener = null;
  }

  private StoredResponse(int status, Map<String, String> headers, Supplier<byte[]> opener) {
    this.status = status;
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    this.opener = Objects.requireNonNull(opener);
  }

  /**
   * A stored response whose body {@code opener} yields on first use (and may fail to): for stores
   * that decrypt bodies lazily, so that a replay that cannot be opened fails where it is answered.
   */
  public static StoredResponse opening(
      int status, Map<String, String> headers, Supplier<byte[]> opener) {
    return new StoredResponse(status, headers, opener);
  }

  public int status() {
    return status;
  }

  public Map<String, String> headers() {
    return headers;
  }

  /**
   * The exact body bytes (a copy).
   *
   * @throws com.banhang.idempotency.IdempotencyStoreUnavailableException when the stored body
   *     cannot be opened (sealed under a key no longer configured, altered, or plaintext while
   *     encryption is configured)
   */
  public byte[] body() {
    byte[] current = body;
    if (current == null) {
      byte[] opened = opener.get();
      current = opened == null ? new byte[0] : opened;
      body = current;
    }
    return current.clone();
  }

  /** Where the response points to, if anywhere: the resource reference of the record. */
  public String location() {
    return headers.get("Location");
  }

  /** Headers as stored in one text column: one {@code Name: value} line each. */
  public String headersAsText() {
    return headers.entrySet().stream()
        .map(e -> e.getKey() + ": " + e.getValue())
        .collect(Collectors.joining("\n"));
  }

  public static Map<String, String> headersFromText(String text) {
    Map<String, String> headers = new LinkedHashMap<>();
    if (text == null || text.isEmpty()) {
      return headers;
    }
    for (String line : text.split("\n")) {
      int colon = line.indexOf(':');
      if (colon > 0) {
        headers.put(line.substring(0, colon), line.substring(colon + 1).strip());
      }
    }
    return headers;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StoredResponse other
        && status == other.status
        && headers.equals(other.headers)
        && Arrays.equals(body(), other.body());
  }

  @Override
  public int hashCode() {
    return 31 * (31 * status + headers.hashCode()) + Arrays.hashCode(body());
  }

  @Override
  public String toString() {
    return "StoredResponse[status="
        + status
        + ", headers="
        + headers
        + ", "
        + (body == null ? "unopened body" : body.length + " bytes")
        + "]";
  }
}
