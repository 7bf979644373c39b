package it.com.banhang.shop;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.storm.Storm;
import com.banhang.storm.StormReport;
import com.banhang.storm.StormSettings;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The retry storm while the shop's JVM is killed with SIGKILL at random moments and started again
 * (docs/proof.md): the gateway sandbox runs as its own server, so its counts survive every crash.
 * Kills land wherever the storm is: before a claim, between the gateway's charge and the completion
 * commit, during a replay. Three kills in 600 intents in the build (five per thousand),
 * -Dstorm.kills more in bench/storm. After the last restart and the settle period, the same
 * invariants as {@link RetryStormIT}.
 */
class CrashStormIT {

  /** 600 intents and 3 kills in the build; bench/storm runs 1,000 with 6 kills. */
  private static final int INTENTS = Integer.getInteger("storm.intents", 600);

  private static final int KILLS = Integer.getInteger("storm.kills", 3);

  @Test
  void shopKilledSeveralTimesMidStorm_noOrderChargedTwice_noAnsweredPaymentLost() throws Exception {
    StormSettings settings =
        StormSettings.defaults()
            .withUrls(ShopApi.URL, Sandbox.URL)
            .withIntents(INTENTS, 4)
            .withSeed(11)
            .withTimes(Duration.ofMillis(1_500), Duration.ofSeconds(120), Duration.ofSeconds(180));
    ExecutorService driver = Executors.newSingleThreadExecutor();
    Future<StormReport> storm =
        driver.submit(
            () ->
                new Storm(settings)
                    .run(
                        "claim-first on "
                            + System.getProperty("shop.db", "?")
                            + ", shop killed "
                            + KILLS
                            + " times"));
    int killsMidStorm = 0;
    try {
      Random moments = new Random(11);
      for (int i = 0; i < KILLS; i++) {
        Thread.sleep(2_000 + moments.nextInt(4_000));
        if (storm.isDone()) {
          break;
        }
        ShopServer.kill();
        killsMidStorm++;
        ShopServer.start();
      }
      StormReport report = storm.get(15, TimeUnit.MINUTES);
      System.out.print(report.table());

      assertThat(killsMidStorm)
          .as("every kill landed while customers were retrying")
          .isEqualTo(KILLS);
      assertThat(report.answers())
          .as("the crashes broke connections")
          .containsKey("connection error");
      assertThat(report.ordersChargedTwice()).as(report.table()).isZero();
      assertThat(report.capturedNotChargedOnce()).as(report.table()).isZero();
      assertThat(report.paidButNeverCharged()).as(report.table()).isZero();
      assertThat(report.chargedButNotPaid()).as(report.table()).isZero();
      assertThat(report.processingKeysLeft()).as(report.table()).isZero();
    } finally {
      driver.shutdownNow();
    }
  }
}
