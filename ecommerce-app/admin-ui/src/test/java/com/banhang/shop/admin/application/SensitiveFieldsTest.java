package com.banhang.shop.admin.application;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SensitiveFieldsTest {

  @Test
  void moneyAndCardFields_maskedAtAnyDepth_otherFieldsKept() {
    String body =
        "{\"id\":\"p1\",\"amount\":1250000,\"currency\":\"VND\",\"payment_method\":\"pm_card_ok\","
            + "\"items\":[{\"sku\":\"SKU-1\",\"unitPrice\":625000}],\"total\":1250000}";

    String masked = SensitiveFields.mask(body.getBytes(StandardCharsets.UTF_8));

    assertThat(masked)
        .contains("\"id\": \"p1\"", "\"currency\": \"VND\"", "\"sku\": \"SKU-1\"")
        .contains("\"amount\": \"***\"", "\"unitPrice\": \"***\"", "\"total\": \"***\"")
        .contains("\"payment_method\": \"***\"")
        .doesNotContain("1250000", "625000", "pm_card_ok");
  }

  @Test
  void bodyThatIsNotJson_notShown_onlyItsSize() {
    byte[] binary = {0, (byte) 0xff, 'x'};

    assertThat(SensitiveFields.mask(binary)).isEqualTo("(3 bytes, not JSON: not shown)");
    assertThat(SensitiveFields.mask(new byte[0])).isEmpty();
  }
}
