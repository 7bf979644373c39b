package it.com.banhang.shop;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.storm.Storm;
import com.banhang.storm.StormReport;
import com.banhang.storm.StormSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The short retry storm on the shop under test (docs/proof.md): 200 customers (or {@code
 * storm.intents}) each create an order and pay it through a gateway that is slow for 5% of the
 * calls (longer than the client's timeout), loses 3% of its answers after charging, loses 2% of the
 * requests and fails 2% before charging; every client retries with the same key and body. Counted
 * against the gateway's own charges: no order charged twice, every payment answered captured
 * charged exactly once, no order paid without a charge, and no key left processing once the shop
 * has settled; and, counted at the sample subscriber once events have drained, exactly one
 * PaymentCaptured event per captured payment and none for any other.
 */
class RetryStormIT {

  /** 200 in the build; bench/storm runs the full 1,000 with {@code -Dstorm.intents=1000}. */
  private static final int INTENTS = Integer.getInteger("storm.intents", 200);

  private static final String DB = System.getProperty("shop.db", ShopApi.URL);

  @Test
  void twoHundredIntentsUnderGatewayFaults_noOrderChargedTwice_nothingLeftOpen() throws Exception {
    StormSettings settings =
        StormSettings.defaults()
            .withUrls(ShopApi.URL, Sandbox.URL)
            .withIntents(INTENTS, 8)
            .withTimes(Duration.ofMillis(1_500), Duration.ofSeconds(60), Duration.ofSeconds(150));

    java.time.Instant start = java.time.Instant.now();
    StormReport report =
        new Storm(settings).run(System.getProperty("storm.label", "claim-first") + " on " + DB);
    System.out.print(report.table());

    assertThat(report.requestsSent())
        .as("the faults made clients retry")
        .isGreaterThan(2L * report.intents());
    StormInvariants.assertEvery5xxAProblemWithRetryAfter(report);
    StormInvariants.assertHeld(report);
    assertThat(report.ok()).isTrue();
    StormInvariants.assertOneCapturedEventPerCapturedPayment(start);
  }
}
