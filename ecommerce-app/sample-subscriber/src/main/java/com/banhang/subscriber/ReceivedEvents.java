package com.banhang.subscriber;

import com.banhang.events.Inbox;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The subscriber's business: it keeps each event it is told of, once. The inbox row and the event's
 * row are written in one transaction, so a delivery that fails half-way leaves neither and the
 * shop's retry handles it whole, and a second delivery of a handled event changes nothing.
 */
@ApplicationScoped
public class ReceivedEvents {

  @Resource(lookup = "jdbc/subscriber")
  DataSource dataSource;

  @Inject Inbox inbox;

  /** Its own tables, created when it starts: a sample needs no migration tool. */
  void createTables(@Observes @Initialized(ApplicationScoped.class) Object started)
      throws SQLException {
    try (Connection connection = dataSource.getConnection();
        Statement ddl = connection.createStatement()) {
      // The events library's inbox table (docs/events.md, "Consuming exactly once").
      ddl.execute(
          "CREATE TABLE IF NOT EXISTS inbox_event (source VARCHAR(200) NOT NULL,"
              + " event_id VARCHAR(200) NOT NULL, received_at TIMESTAMP WITH TIME ZONE NOT NULL,"
              + " CONSTRAINT pk_inbox_event PRIMARY KEY (source, event_id))");
      ddl.execute(
          "CREATE TABLE IF NOT EXISTS received_event (position BIGINT AUTO_INCREMENT PRIMARY KEY,"
              + " id VARCHAR(200) NOT NULL, source VARCHAR(200) NOT NULL,"
              + " type VARCHAR(100) NOT NULL, subject VARCHAR(64) NOT NULL,"
              + " aggregate_sequence BIGINT NOT NULL, tenant_id VARCHAR(100) NOT NULL,"
              + " event_time VARCHAR(40) NOT NULL, data CHARACTER LARGE OBJECT NOT NULL)");
    }
  }

  /**
   * Handles {@code event} unless it was handled before.
   *
   * @return true if it was new
   */
  @Transactional
  public boolean handle(JsonObject event) {
    return inbox.once(event.getString("source"), event.getString("id"), () -> keep(event));
  }

  private void keep(JsonObject event) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement insert =
            connection.prepareStatement(
                "INSERT INTO received_event (id, source, type, subject, aggregate_sequence,"
                    + " tenant_id, event_time, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
      insert.setString(1, event.getString("id"));
      insert.setString(2, event.getString("source"));
      insert.setString(3, event.getString("type"));
      insert.setString(4, event.getString("subject"));
      insert.setLong(5, event.getJsonNumber("aggregatesequence").longValue());
      insert.setString(6, event.getString("tenantid"));
      insert.setString(7, event.getString("time"));
      insert.setString(8, event.getJsonObject("data").toString());
      insert.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot keep event " + event.getString("id"), e);
    }
  }

  /** The events handled, in the order they were handled, optionally of one type or subject. */
  public JsonArrayBuilder list(String type, String subject) {
    JsonArrayBuilder events = Json.createArrayBuilder();
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT id, type, subject, aggregate_sequence, tenant_id, event_time, data"
                    + " FROM received_event WHERE (? IS NULL OR type = ?)"
                    + " AND (? IS NULL OR subject = ?) ORDER BY position")) {
      select.setString(1, type);
      select.setString(2, type);
      select.setString(3, subject);
      select.setString(4, subject);
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) {
          events.add(
              Json.createObjectBuilder()
                  .add("id", rs.getString(1))
                  .add("type", rs.getString(2))
                  .add("subject", rs.getString(3))
                  .add("aggregatesequence", rs.getLong(4))
                  .add("tenantid", rs.getString(5))
                  .add("time", rs.getString(6))
                  .add(
                      "data",
                      Json.createReader(new java.io.StringReader(rs.getString(7))).readObject()));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot list events", e);
    }
    return events;
  }
}
