package com.banhang.shop.admin.application;

import java.util.Objects;

/** One idempotency key: its tenant, operation and the client's key. */
public record KeyRef(String tenant, String operation, String key) {

  public KeyRef {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(key, "key");
  }
}
