package it.com.banhang.shop.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.storm.StormReport;
import com.banhang.storm.StormSettings;
import it.com.banhang.shop.BackgroundStorm;
import it.com.banhang.shop.Sandbox;
import it.com.banhang.shop.ShopApi;
import it.com.banhang.shop.StormInvariants;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The retry storm while PostgreSQL is stopped for 10 s (docs/proof.md): every connection of the
 * shop's pool is closed and new ones are refused, then the database comes back with everything it
 * had committed. While it is away, a keyed request must be answered 503, a problem with
 * Retry-After, never a 500 or a page; no charge may be made that no recorded attempt stands for;
 * and once it is back, the storm's invariants hold.
 */
class DatabaseOutageStormIT {

  private static final int INTENTS = Integer.getInteger("storm.intents", 200);
  private static final Path DATA =
      Path.of(System.getProperty("shop.postgresql.data.dir", "target/postgresql-data"));

  @Test
  void databaseStoppedTenSecondsMidStorm_503WithRetryAfter_noChargeWithoutAnAttempt()
      throws Exception {
    StormSettings settings =
        StormSettings.defaults()
            .withUrls(ShopApi.URL, Sandbox.URL)
            .withIntents(INTENTS, 8)
            .withSeed(31)
            .withTimes(Duration.ofMillis(1_500), Duration.ofSeconds(90), Duration.ofSeconds(150));
    PostgresProcess postgres = PostgresProcess.of(DATA);
    try (BackgroundStorm storm =
        BackgroundStorm.start(settings, "claim-first, PostgreSQL stopped 10 s")) {
      Thread.sleep(4_000);
      assertThat(storm.isRunning()).as("the storm still runs when the database stops").isTrue();
      postgres.stop();
      try {
        Thread.sleep(10_000);
      } finally {
        postgres.start();
      }
      StormReport report = storm.reportWhileAnOperatorReconciles(Duration.ofMinutes(10));
      System.out.print(report.table());

      assertThat(report.answers())
          .as("keyed requests refused while it was away")
          .containsKey("503");
      StormInvariants.assertEvery5xxAProblemWithRetryAfter(report);
      StormInvariants.assertHeld(report);
    }
  }
}
