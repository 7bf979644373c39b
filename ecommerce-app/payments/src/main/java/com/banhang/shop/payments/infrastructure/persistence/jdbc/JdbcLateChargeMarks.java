package com.banhang.shop.payments.infrastructure.persistence.jdbc;

import com.banhang.shop.payments.application.LateChargeMarks;
import com.banhang.shop.payments.domain.model.LateCharge;
import com.banhang.shop.payments.domain.model.LateChargeHandling;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The operator's mark on a flagged late charge (V16): one UPDATE fenced by its WHERE clause, the
 * payment's late charge one of the given flags and its mark still empty. The database applies the
 * first of two concurrent marks; the second, waiting on the first's row lock, then finds the mark
 * set and matches nothing. A read followed by a write could let both through.
 *
 * <p>The version is raised with the mark, so that an entity of the same payment read before it and
 * written after fails its optimistic check instead of passing unnoticed. A connection of {@code
 * jdbc/shop} taken inside a JTA transaction is enlisted in it: the mark commits with the timeline
 * entry and the audit entry of that transaction, or not at all.
 */
@ApplicationScoped
public class JdbcLateChargeMarks implements LateChargeMarks {

  static final String MARK =
      "UPDATE payment SET handled_at = ?, handled_by = ?, handling = ?, handled_reason = ?,"
          + " updated_at = ?, version = version + 1"
          + " WHERE id = ? AND handled_at IS NULL AND late_charge IN (%s)";

  @Resource(lookup = "jdbc/shop")
  DataSource dataSource;

  @Override
  public boolean mark(
      String paymentId,
      Set<LateCharge> flags,
      LateChargeHandling handling,
      String operator,
      String reason,
      Instant at) {
    if (flags.isEmpty()) {
      return false;
    }
    // The flags are the domain's names, never the operator's text: only placeholders become SQL.
    List<LateCharge> ordered = flags.stream().sorted().toList();
    String sql = String.format(MARK, String.join(", ", Collections.nCopies(ordered.size(), "?")));
    OffsetDateTime when = OffsetDateTime.ofInstant(at, ZoneOffset.UTC);
    try (Connection connection = dataSource.getConnection();
        PreparedStatement update = connection.prepareStatement(sql)) {
      update.setObject(1, when);
      update.setString(2, operator);
      update.setString(3, handling.name());
      update.setString(4, reason);
      update.setObject(5, when);
      update.setString(6, paymentId);
      int next = 7;
      for (LateCharge flag : ordered) {
        update.setString(next++, flag.name());
      }
      return update.executeUpdate() == 1;
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot mark the late charge of payment " + paymentId + ": " + e.getMessage(), e);
    }
  }
}
