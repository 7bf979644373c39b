package com.banhang.shop.web.health;

import com.banhang.shop.web.DatabaseMigrations;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import javax.sql.DataSource;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationVersion;

/**
 * Readiness: the database's schema is at the latest version this WAR carries (no pending Flyway
 * migration). The WAR migrates at start-up; a node whose migration failed, or that was pointed at a
 * database another node has not yet migrated, would fail on the first query that needs a new table.
 * Reads the same migration set as the start-up migration ({@code db/migration/<vendor>}).
 */
@Readiness
@ApplicationScoped
public class MigrationsHealthCheck implements HealthCheck {

  static final String NAME = "migrations";

  @Resource(lookup = "jdbc/shop")
  DataSource dataSource;

  @Resource(lookup = "java:comp/DefaultManagedExecutorService")
  ManagedExecutorService executor;

  /**
   * How long a verified "nothing pending" is reused. It cannot turn false while this WAR runs (a
   * newer WAR's migrations only add versions this one does not know, which Flyway does not count as
   * pending), and reusing it keeps the readiness probe to one database round trip, within its few
   * seconds, when the database hangs.
   */
  private static final Duration REUSE_UP = Duration.ofSeconds(60);

  private final BoundedCheck bounded = new BoundedCheck(NAME, Duration.ofSeconds(3));
  private volatile HealthCheckResponse lastUp;
  private volatile long lastUpAtNanos;

  @Override
  public HealthCheckResponse call() {
    HealthCheckResponse up = lastUp;
    if (up != null && System.nanoTime() - lastUpAtNanos < REUSE_UP.toNanos()) {
      return up;
    }
    HealthCheckResponse response = bounded.run(executor, this::probe);
    if (response.getStatus() == HealthCheckResponse.Status.UP) {
      lastUp = response;
      lastUpAtNanos = System.nanoTime();
    }
    return response;
  }

  private HealthCheckResponse probe() throws SQLException {
    String vendor = DatabaseMigrations.vendor(dataSource);
    MigrationInfoService info =
        Flyway.configure(MigrationsHealthCheck.class.getClassLoader())
            .dataSource(dataSource)
            .locations(DatabaseMigrations.location(vendor))
            .load()
            .info();
    MigrationInfo current = info.current();
    int pending = info.pending().length;
    String latest =
        Arrays.stream(info.all())
            .map(MigrationInfo::getVersion)
            .filter(v -> v != null)
            .max(MigrationVersion::compareTo)
            .map(MigrationVersion::getVersion)
            .orElse("none");
    String detail =
        vendor
            + " schema "
            + (current == null ? "none" : current.getVersion().getVersion())
            + ", latest "
            + latest
            + ", "
            + pending
            + " pending";
    return pending == 0 ? bounded.up(detail) : bounded.down(detail);
  }
}
