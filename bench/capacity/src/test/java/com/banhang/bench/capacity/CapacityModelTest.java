package com.banhang.bench.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The model's arithmetic only; no figure of a run is checked here. */
class CapacityModelTest {

  @Test
  void aDayOfKeysAtAThousandPerSecondIs86_4MillionRows() {
    assertEquals(86_400_000L, CapacityModel.rowsHeld(1_000, Duration.ofHours(24)));
    assertEquals(604_800_000L, CapacityModel.rowsHeld(1_000, Duration.ofDays(7)));
  }

  @Test
  void twoKilobyteRowsAtAThousandPerSecondAreAbout173GbADay() {
    assertEquals(172.8, CapacityModel.gb(CapacityModel.bytesPerDay(1_000, 2_000)), 1e-9);
    assertEquals(
        172.8, CapacityModel.gb(CapacityModel.bytesHeld(1_000, Duration.ofHours(24), 2_000)), 1e-9);
  }

  @Test
  void theRateADiskHoldsIsItsShareDividedByARowsLifetimeBytes() {
    // 1 TB, half of it for the table, 500-byte rows kept a day: 1e12 * 0.5 / (500 * 86400).
    assertEquals(
        11_574.074, CapacityModel.rateForDisk(1e12, 0.5, 500, Duration.ofHours(24)), 0.001);
  }

  @Test
  void aBudgetDividedByACostPerRequest_noCostMeansNoLimit() {
    assertEquals(5_000, CapacityModel.rateFor(10_000, 2), 1e-9);
    assertEquals(Double.POSITIVE_INFINITY, CapacityModel.rateFor(10_000, 0));
  }

  @Test
  void primariesRoundUpWithHeadroom_andNeverFallBelowOne() {
    assertEquals(1, CapacityModel.primaries(100, 10_000, 0.5));
    assertEquals(2, CapacityModel.primaries(6_000, 10_000, 0.5));
    assertEquals(3, CapacityModel.primaries(10_001, 10_000, 0.5));
    assertThrows(IllegalArgumentException.class, () -> CapacityModel.primaries(1, 1, 0));
  }

  @Test
  void firstTouches_nearlyAllWhenFewBesideThePages_pagesOverChangesWhenMany() {
    assertEquals(0.999_5, CapacityModel.firstTouchShare(1_000, 1_000_000), 1e-4);
    assertEquals(1 - Math.exp(-1), CapacityModel.firstTouchShare(50_000, 50_000), 1e-9);
    assertEquals(0.01, CapacityModel.firstTouchShare(1_000_000, 10_000), 1e-6);
    assertEquals(0, CapacityModel.firstTouchShare(0, 10));
  }
}
