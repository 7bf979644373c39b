package com.banhang.shop.web.health;

import com.banhang.shop.web.DatabaseMigrations;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
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

  @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
  ManagedThreadFactory threads;

  private final BoundedCheck bounded = new BoundedCheck(NAME, Duration.ofSeconds(3));

  /**
   * A verified "nothing pending", kept for as long as this WAR runs: it cannot turn false meanwhile
   * (a newer WAR's migrations only add versions this one does not know, which Flyway does not count
   * as pending). So once UP, the probe costs no database round trip: while the database hangs,
   * readiness waits on the database check alone, within its 3 s, instead of on both one after the
   * other (DatabaseFreezeIT bounds every answer while frozen at 9 s; a reuse of 60 s made the first
   * probes after it ran out take 5.5 s).
   */
  private volatile HealthCheckResponse lastUp;

  @Override
  public HealthCheckResponse call() {
    HealthCheckResponse up = lastUp;
    if (up != null) {
      return up;
    }
    HealthCheckResponse response = bounded.run(threads, this::probe);
    if (response.getStatus() == HealthCheckResponse.Status.UP) {
      lastUp = response;
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
