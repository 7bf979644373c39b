package it.com.banhang.shop;

import com.banhang.storm.Storm;
import com.banhang.storm.StormReport;
import com.banhang.storm.StormSettings;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

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

  /** The storm's report once it has settled; fails if that takes longer than {@code timeout}. */
  public StormReport report(Duration timeout) throws Exception {
    return storm.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    driver.shutdownNow();
  }
}
