package com.banhang.shop.payments.infrastructure.persistence.jdbc;

import com.banhang.shop.payments.api.TimelineEntry;
import com.banhang.shop.payments.application.PaymentTimeline;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.sql.DataSource;

/**
 * The payment timeline (table {@code payment_timeline}, V13): append-only, so this class has an
 * INSERT and a SELECT and nothing that could change or remove a row (PaymentTimelineTableTest
 * checks that no other class names the table). On PostgreSQL and SQL Server a trigger refuses
 * UPDATE and DELETE from anyone.
 *
 * <p>A connection of {@code jdbc/shop} taken inside a JTA transaction is enlisted in it: an entry
 * written there commits with the business rows of that transaction.
 */
@ApplicationScoped
public class JdbcPaymentTimeline implements PaymentTimeline {

  static final String INSERT =
      "INSERT INTO payment_timeline (tenant_id, idempotency_key, payment_id, occurred_at, kind,"
          + " detail, actor) VALUES (?, ?, ?, ?, ?, ?, ?)";

  /**
   * A seek on ix_payment_timeline_key (tenant_id, idempotency_key, id), read backwards: the key's
   * newest entries. SQL Server needs OFFSET before FETCH; all three databases accept this form.
   */
  static final String OF_KEY =
      "SELECT id, occurred_at, kind, detail, actor, payment_id FROM payment_timeline"
          + " WHERE tenant_id = ? AND idempotency_key = ?"
          + " ORDER BY id DESC OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY";

  @Resource(lookup = "jdbc/shop")
  DataSource dataSource;

  @Override
  public void append(Entry entry) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement insert = connection.prepareStatement(INSERT)) {
      insert.setString(1, entry.tenantId());
      insert.setString(2, entry.idempotencyKey());
      insert.setString(3, entry.paymentId());
      insert.setObject(4, OffsetDateTime.ofInstant(entry.at(), ZoneOffset.UTC));
      insert.setString(5, entry.kind().name());
      insert.setString(6, entry.detail());
      insert.setString(7, entry.actor());
      insert.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot write the payment timeline: " + e.getMessage(), e);
    }
  }

  @Override
  public List<TimelineEntry> ofKey(String tenantId, String idempotencyKey, int limit) {
    if (limit < 1) {
      // SQL Server refuses FETCH NEXT 0 ROWS.
      return List.of();
    }
    List<TimelineEntry> newestFirst = new ArrayList<>();
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select = connection.prepareStatement(OF_KEY)) {
      select.setString(1, tenantId);
      select.setString(2, idempotencyKey);
      select.setInt(3, limit);
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) {
          newestFirst.add(
              new TimelineEntry(
                  rs.getObject(2, OffsetDateTime.class).toInstant(),
                  rs.getString(3),
                  rs.getString(4),
                  rs.getString(5),
                  rs.getString(6)));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the payment timeline: " + e.getMessage(), e);
    }
    Collections.reverse(newestFirst);
    return newestFirst;
  }
}
