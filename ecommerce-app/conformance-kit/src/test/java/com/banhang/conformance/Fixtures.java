package com.banhang.conformance;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

/** Settings that point the kit at a {@link FakeApi}. */
final class Fixtures {

  static final String ORDER =
      "{\"currency\":\"VND\",\"items\":[{\"sku\":\"{{unique}}\",\"quantity\":1,"
          + "\"unitPrice\":100000}]}";
  static final String PAYMENT =
      "{\"amount\":100000,\"currency\":\"VND\",\"paymentMethod\":\"pm_card_ok\"}";

  private Fixtures() {}

  /** {@code POST /orders} as alice, bob as the second caller. */
  static Map<String, String> orders(FakeApi api) {
    return orders(api.baseUrl());
  }

  /** The same settings for any base URL. */
  static Map<String, String> orders(URI baseUrl) {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("base-url", baseUrl.toString());
    values.put("endpoint", "/orders");
    values.put("body-template", ORDER);
    values.put("tenant-a", "alice:alice-secret");
    values.put("tenant-b", "bob:bob-secret");
    values.put("expect-problem-slugs", "true");
    values.put("timeout-seconds", "20");
    return values;
  }

  /** {@code POST /orders/{{id}}/payments}, each intent's order made by the setup call. */
  static Map<String, String> payments(FakeApi api) {
    Map<String, String> values = orders(api);
    values.put("endpoint", "/orders/{{id}}/payments");
    values.put("body-template", PAYMENT);
    values.put("setup-endpoint", "/orders");
    values.put("setup-body-template", ORDER);
    return values;
  }
}
