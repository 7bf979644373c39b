package com.banhang.shop.client;

import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** One HTTP answer, whichever client got it: status, headers (case-insensitive) and body bytes. */
record Answer(int status, HttpHeaders headers, byte[] body) {

  static final String REPLAYED_HEADER = "Idempotent-Replayed";
  static final String KEY_EXPIRES_HEADER = "Idempotency-Key-Expires";

  Optional<String> header(String name) {
    return headers.firstValue(name);
  }

  /** Whether the shop says this is a stored answer replayed to a retry (docs/contract.md, s5). */
  boolean replayed() {
    return header(REPLAYED_HEADER)
        .map(value -> value.trim().equalsIgnoreCase("true"))
        .orElse(false);
  }

  String bodyText() {
    return new String(body, StandardCharsets.UTF_8);
  }
}
