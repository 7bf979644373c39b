package com.banhang.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.events.jdbc.JdbcOutboxStore;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code events.outbox.enabled}: on by default, and off means no row, on the outbox's real table
 * (H2, migrated from the scripts the shop ships). Outside a server nothing intercepts {@link
 * Outbox#record}, so these call it as the transaction's body would.
 */
class OutboxTest {

  private static final NewEvent PLACED =
      new NewEvent("order", "o-1", "OrderPlaced", "tenant-a", "{\"orderId\":\"o-1\"}");

  private DataSource dataSource;

  @BeforeEach
  void freshDatabase() {
    dataSource = TestDatabases.h2("outbox-switch");
  }

  @Test
  void record_settingUnset_writesTheEvent() throws Exception {
    String unset =
        Outbox.class.getDeclaredField("enabled").getAnnotation(ConfigProperty.class).defaultValue();

    outbox(Boolean.parseBoolean(unset)).record(PLACED);

    assertThat(outboxRows()).isEqualTo(1);
  }

  @Test
  void record_eventsOff_writesNothing() throws SQLException {
    Outbox outbox = outbox(false);

    outbox.record(PLACED);
    outbox.record(PLACED);

    assertThat(outboxRows()).isZero();
  }

  private Outbox outbox(boolean enabled) {
    Outbox outbox = new Outbox();
    outbox.store = JdbcOutboxStore.forDataSource(dataSource);
    outbox.enabled = enabled;
    return outbox;
  }

  private long outboxRows() throws SQLException {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM outbox_event")) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
