package com.banhang.shop.web.health;

import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness: the shop's database ({@code jdbc/shop}, which holds both the keys and the business
 * rows) answers. Without it every keyed request is a 503, so a node that cannot reach it should not
 * get traffic. The probe asks the driver to validate a connection within 2 s, and the whole check
 * (including waiting for a pooled connection) is bounded at 3 s.
 */
@Readiness
@ApplicationScoped
public class DatabaseHealthCheck implements HealthCheck {

  static final String NAME = "database";
  private static final int VALIDATION_SECONDS = 2;

  @Resource(lookup = "jdbc/shop")
  DataSource dataSource;

  @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
  ManagedThreadFactory threads;

  private final BoundedCheck bounded = new BoundedCheck(NAME, Duration.ofSeconds(3));

  @Override
  public HealthCheckResponse call() {
    return bounded.run(threads, this::probe);
  }

  private HealthCheckResponse probe() throws Exception {
    long started = System.nanoTime();
    try (Connection connection = dataSource.getConnection()) {
      boolean valid = connection.isValid(VALIDATION_SECONDS);
      if (!valid) {
        // A connection that failed validation (timed out mid-exchange) must not go back to the
        // pool, or the next check would get it again and stay DOWN after the database recovers.
        try {
          connection.abort(command -> threads.newThread(command).start());
        } catch (SQLException | RuntimeException e) {
          // Closing it below is the fallback.
        }
        return bounded.down(
            "connection not valid within "
                + VALIDATION_SECONDS
                + " s (after "
                + (System.nanoTime() - started) / 1_000_000
                + " ms)");
      }
      DatabaseMetaData meta = connection.getMetaData();
      return bounded.up(
          meta.getDatabaseProductName()
              + " "
              + meta.getDatabaseProductVersion()
              + ", validated in "
              + (System.nanoTime() - started) / 1_000_000
              + " ms");
    }
  }
}
