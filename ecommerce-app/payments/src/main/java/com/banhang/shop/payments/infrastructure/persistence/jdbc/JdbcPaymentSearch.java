package com.banhang.shop.payments.infrastructure.persistence.jdbc;

import com.banhang.shop.payments.api.PaymentRecord;
import com.banhang.shop.payments.application.PaymentSearch;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The operators' payment lookups, each one statement that seeks one index (V13):
 *
 * <ul>
 *   <li>payment id: pk_payment; order id: ix_payment_order; gateway key: ix_payment_gateway_key;
 *       gateway charge id: ix_payment_gateway_charge_id; late charge id: ix_payment_late_charge_id;
 *       idempotency key: ix_payment_idempotency_key;
 *   <li>tenant prefix: a range on ix_payment_tenant_created ({@code tenant_id >= ? AND tenant_id <
 *       ?}), never {@code LIKE}: PostgreSQL seeks a {@code LIKE 'x%'} only in the C collation or
 *       with a pattern operator class, and a leading wildcard seeks nowhere.
 * </ul>
 *
 * <p>One column per statement, rather than one statement with OR between the columns, which a
 * planner may well answer with a scan. Every string is bound with {@code setString}: on SQL Server
 * every compared column is nvarchar in a binary collation (V5, V11, V13), so nothing is converted.
 */
@ApplicationScoped
public class JdbcPaymentSearch implements PaymentSearch {

  private static final String COLUMNS =
      "SELECT id, tenant_id, order_id, amount, currency, status, gateway_key, gateway_charge_id,"
          + " idempotency_key, idempotency_attempt, late_charge, created_at, updated_at"
          + " FROM payment";

  /** Newest first, then by id so that equal times come out in one order everywhere. */
  private static final String NEWEST_FIRST =
      " ORDER BY created_at DESC, id DESC OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY";

  /** The column names, fixed here: nothing of the operator's term ever becomes SQL text. */
  static final Map<Column, String> COLUMN_NAMES =
      Map.of(
          Column.PAYMENT_ID, "id",
          Column.ORDER_ID, "order_id",
          Column.GATEWAY_KEY, "gateway_key",
          Column.GATEWAY_CHARGE_ID, "gateway_charge_id",
          Column.LATE_CHARGE_ID, "late_charge_id",
          Column.IDEMPOTENCY_KEY, "idempotency_key");

  /** At most this many order ids in one IN list (far under every database's parameter limit). */
  static final int ORDERS_PER_STATEMENT = 100;

  @Resource(lookup = "jdbc/shop")
  DataSource dataSource;

  @Override
  public List<PaymentRecord> equal(Column column, String value, int limit) {
    if (limit < 1 || value == null) {
      return List.of();
    }
    String sql = COLUMNS + " WHERE " + COLUMN_NAMES.get(column) + " = ?" + NEWEST_FIRST;
    return query(sql, List.of(value), limit);
  }

  @Override
  public List<PaymentRecord> tenantStartingWith(String prefix, int limit) {
    if (limit < 1 || prefix == null || prefix.isEmpty()) {
      return List.of();
    }
    String upper = upperBound(prefix);
    List<PaymentRecord> found =
        upper == null
            ? query(COLUMNS + " WHERE tenant_id >= ?" + NEWEST_FIRST, List.of(prefix), limit)
            : query(
                COLUMNS + " WHERE tenant_id >= ? AND tenant_id < ?" + NEWEST_FIRST,
                List.of(prefix, upper),
                limit);
    // A linguistic collation (PostgreSQL's default) may order a few strings that do not start
    // with the prefix inside the range: the range only finds the rows, the prefix decides.
    return found.stream().filter(p -> p.tenantId().startsWith(prefix)).toList();
  }

  /**
   * The least string above every string that starts with {@code prefix} in code-point order: the
   * prefix with its last character raised by one (a last character that cannot be raised is dropped
   * first). Null when there is none: every string from the prefix on may match.
   */
  static String upperBound(String prefix) {
    StringBuilder upper = new StringBuilder(prefix);
    while (upper.length() > 0) {
      char last = upper.charAt(upper.length() - 1);
      if (last < Character.MAX_VALUE && !Character.isSurrogate(last)) {
        upper.setCharAt(upper.length() - 1, (char) (last + 1));
        return upper.toString();
      }
      upper.setLength(upper.length() - 1);
    }
    return null;
  }

  @Override
  public List<PaymentRecord> ofOrders(Collection<String> orderIds, int limit) {
    if (limit < 1 || orderIds == null || orderIds.isEmpty()) {
      return List.of();
    }
    List<String> ids = new ArrayList<>(new LinkedHashSet<>(orderIds));
    List<PaymentRecord> found = new ArrayList<>();
    for (int from = 0; from < ids.size(); from += ORDERS_PER_STATEMENT) {
      List<String> part = ids.subList(from, Math.min(ids.size(), from + ORDERS_PER_STATEMENT));
      String marks = String.join(", ", java.util.Collections.nCopies(part.size(), "?"));
      found.addAll(
          query(COLUMNS + " WHERE order_id IN (" + marks + ")" + NEWEST_FIRST, part, limit));
    }
    found.sort(
        java.util.Comparator.comparing(PaymentRecord::createdAt)
            .thenComparing(PaymentRecord::paymentId)
            .reversed());
    return found.size() <= limit ? found : List.copyOf(found.subList(0, limit));
  }

  private List<PaymentRecord> query(String sql, List<String> values, int limit) {
    List<PaymentRecord> records = new ArrayList<>();
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select = connection.prepareStatement(sql)) {
      int i = 1;
      for (String value : values) {
        select.setString(i++, value);
      }
      select.setInt(i, limit);
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) {
          records.add(record(rs));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot search the payments: " + e.getMessage(), e);
    }
    return records;
  }

  private static PaymentRecord record(ResultSet rs) throws SQLException {
    return new PaymentRecord(
        rs.getString(1),
        rs.getString(2),
        rs.getString(3),
        rs.getLong(4),
        rs.getString(5),
        rs.getString(6),
        rs.getString(7),
        rs.getString(8),
        rs.getString(9),
        rs.getInt(10),
        rs.getString(11),
        rs.getObject(12, OffsetDateTime.class).toInstant(),
        rs.getObject(13, OffsetDateTime.class).toInstant());
  }
}
