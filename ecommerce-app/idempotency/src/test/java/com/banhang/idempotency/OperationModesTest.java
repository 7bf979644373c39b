package com.banhang.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The public view of the operations' modes: what a health check or a console may ask. */
class OperationModesTest {

  private final Map<String, String> config = new HashMap<>();

  @Test
  void nothingSet_everyOperationIsEnforced_andNothingIsAcknowledged() {
    assertThat(OperationModes.notEnforced(new MapConfig(config))).isEmpty();
    assertThat(OperationModes.acknowledged(new MapConfig(config))).isFalse();
  }

  @Test
  void notEnforced_namesEachOperationWithItsModeInLowerCase() {
    config.put("idempotency.operations.public.orders.mode", "OFF");
    config.put("idempotency.operations.public.payments.mode", "Optional");
    config.put("idempotency.operations.public.refunds.mode", "enforced");
    config.put("idempotency.comparison-only.acknowledged", "true");

    Map<String, String> notEnforced = OperationModes.notEnforced(new MapConfig(config));

    assertThat(notEnforced)
        .containsEntry("public.orders", "off")
        .containsEntry("public.payments", "optional")
        .doesNotContainKey("public.refunds");
    assertThatThrownBy(() -> notEnforced.put("x", "off"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(OperationModes.acknowledged(new MapConfig(config))).isTrue();
  }

  @Test
  void aModeThatIsNoMode_isAnError_notAnAnswer() {
    config.put("idempotency.operations.public.broken.mode", "maybe");

    assertThatThrownBy(() -> OperationModes.notEnforced(new MapConfig(config)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("idempotency.operations.public.broken.mode");
  }
}
