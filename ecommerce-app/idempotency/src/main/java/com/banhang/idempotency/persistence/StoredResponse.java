package com.banhang.idempotency.persistence;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A response as stored for replay: status, the allowlisted headers and the exact body bytes.
 *
 * @param headers header name to value, in the order they were captured; never cookies or
 *     credentials
 */
public record StoredResponse(int status, Map<String, String> headers, byte[] body) {

  public StoredResponse {
    headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    body = body == null ? new byte[0] : body.clone();
  }

  @Override
  public byte[] body() {
    return body.clone();
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
        && Arrays.equals(body, other.body);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * status + headers.hashCode()) + Arrays.hashCode(body);
  }

  @Override
  public String toString() {
    return "StoredResponse[status="
        + status
        + ", headers="
        + headers
        + ", "
        + body.length
        + " bytes]";
  }
}
