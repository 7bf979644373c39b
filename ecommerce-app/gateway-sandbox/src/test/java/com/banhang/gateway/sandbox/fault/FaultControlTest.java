package com.banhang.gateway.sandbox.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class FaultControlTest {

  private static final FaultSettings DEFAULTS =
      new FaultSettings(
          0,
          0.5,
          1000,
          LatencyPhase.AFTER_CHARGE,
          0.5,
          DropMode.GATEWAY_TIMEOUT,
          0.5,
          0.5,
          11,
          false);

  private static List<FaultDecision> draw(FaultControl control, int count) {
    return IntStream.range(0, count).mapToObj(i -> control.nextDecision()).toList();
  }

  @Test
  void startsWithTheDefaults() {
    FaultControl control = new FaultControl(DEFAULTS);

    assertThat(control.current()).isEqualTo(DEFAULTS);
    assertThat(control.defaults()).isEqualTo(DEFAULTS);
  }

  @Test
  void replacingTheSettingsRestartsTheRandomSequenceFromTheirSeed() {
    FaultSettings chaos =
        new FaultSettings(
            0, 0.3, 10, LatencyPhase.BEFORE_CHARGE, 0.3, DropMode.RESET, 0.3, 0.3, 99, true);
    FaultControl control = new FaultControl(DEFAULTS);
    draw(control, 17);

    control.replace(chaos);
    List<FaultDecision> afterReplace = draw(control, 100);

    assertThat(control.current()).isEqualTo(chaos);
    assertThat(afterReplace).isEqualTo(draw(new FaultControl(chaos), 100));
  }

  @Test
  void resetReturnsToTheDefaultsAndTheirSequence() {
    FaultControl control = new FaultControl(DEFAULTS);
    List<FaultDecision> fresh = draw(control, 50);
    control.replace(FaultSettings.NONE);
    draw(control, 5);

    FaultSettings reset = control.reset();

    assertThat(reset).isEqualTo(DEFAULTS);
    assertThat(draw(control, 50)).isEqualTo(fresh);
  }
}
