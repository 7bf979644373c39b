package it.com.banhang.shop;

import com.banhang.storm.Storm;
import com.banhang.storm.StormReport;
import com.banhang.storm.StormSettings;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A storm running on a thread of its own, so that a test can disturb the shop (kill it, stop its
 * database) while the customers retry. Closing it stops a storm that has not finished.
 */
public final class BackgroundStorm implements AutoCloseable {

  private final ExecutorService driver = Executors.newSingleThreadExecutor();
  private final Future<StormReport> storm;

  private BackgroundStorm(StormSettings settings, String label) {
    storm = driver.submit(() -> new Storm(settings).run(label));
  }

  public static BackgroundStorm start(StormSettings settings, String label) {
    return new BackgroundStorm(settings, label);
  }

  public boolean isRunning() {
    return !storm.isDone();
  }

  /**
   * The storm's report once it has settled (failing after {@code timeout}), while an operator runs
   * reconciliation every two seconds (as from the console, any key age). A disturbance leaves
   * payments whose outcome the shop does not know; their customers are answered once reconciliation
   * has settled them. Left to the schedule, that waits for its minimum age (60 s on the test
   * servers); run by hand, it comes as soon as the key's lease has run out. The schedule itself is
   * GatewayFaultsIT's to prove. A run that fails (the shop restarting, the database away) is simply
   * tried again.
   */
  public StormReport reportWhileAnOperatorReconciles(Duration timeout) throws Exception {
    return reportWhileAnOperatorReconciles(timeout, ShopApi.URL);
  }

  /**
   * The same, with the operator's runs on {@code node}: a shop node on a database of its own, not
   * the build's server (DatabaseFailoverStormIT).
   */
  public StormReport reportWhileAnOperatorReconciles(Duration timeout, String node)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      try {
        return storm.get(2, TimeUnit.SECONDS);
      } catch (TimeoutException stillRunning) {
        if (System.nanoTime() > deadline) {
          throw new TimeoutException("the storm did not settle within " + timeout);
        }
        try {
          ShopApi.as("operator")
              .baseUri(node)
              .contentType(io.restassured.http.ContentType.JSON)
              .queryParam("minAge", "PT0S")
              .post("/api/v1/admin/reconciliations");
        } catch (Exception shopOrDatabaseAway) {
          // The next round tries again.
        }
      }
    }
  }

  @Override
  public void close() {
    driver.shutdownNow();
  }
}
