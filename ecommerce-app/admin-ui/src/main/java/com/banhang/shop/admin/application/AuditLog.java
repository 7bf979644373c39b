package com.banhang.shop.admin.application;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * The append-only record of operator actions (table {@code operator_audit}): entries are added and
 * read, never changed or removed through the application, so this class has no statement that could
 * (ArchitectureTest checks that no class of the console writes the table otherwise). On PostgreSQL
 * and SQL Server a trigger refuses UPDATE and DELETE from anyone.
 *
 * <p>An entry joins the transaction that is running, if any: a resolution writes it inside its own
 * transaction (OperatorActions, ResolutionAudit), so change and entry commit together; other
 * actions write it after, in a transaction of its own, so a refused or failed action is audited
 * too.
 */
@ApplicationScoped
public class AuditLog {

  private static final List<String> SEARCHED_COLUMNS =
      List.of(
          "operator_name",
          "action",
          "tenant_id",
          "idempotency_key",
          "reason",
          "result",
          "detail",
          "operation");

  /**
   * The escape character of the search patterns: a wildcard on no database, and not a backslash,
   * which a string literal may read as an escape of its own.
   */
  private static final char ESCAPE = '!';

  private static final String SEARCHED =
      SEARCHED_COLUMNS.stream()
          .map(column -> "LOWER(" + column + ") LIKE ? ESCAPE '" + ESCAPE + "'")
          .collect(java.util.stream.Collectors.joining(" OR ", " WHERE ", ""));

  @Resource(lookup = "jdbc/shop")
  DataSource dataSource;

  /** Appends one entry; {@code ref} and {@code reason} may be null. */
  public void append(
      String operator, String action, KeyRef ref, String reason, ActionResult result) {
    String sql =
        "INSERT INTO operator_audit (occurred_at, operator_name, action, tenant_id, operation,"
            + " idempotency_key, reason, result, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
    try (Connection connection = dataSource.getConnection();
        PreparedStatement insert = connection.prepareStatement(sql)) {
      insert.setObject(1, OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS));
      insert.setString(2, limit(operator, 100));
      insert.setString(3, action);
      insert.setString(4, ref == null ? null : ref.tenant());
      insert.setString(5, ref == null ? null : ref.operation());
      insert.setString(6, ref == null ? null : ref.key());
      insert.setString(7, reason == null ? null : limit(reason, 1000));
      insert.setString(8, result.status().name());
      insert.setString(9, limit(result.message(), 2000));
      insert.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot write the operator audit: " + e.getMessage(), e);
    }
  }

  /** Entries whose operator, action, tenant, key, reason, result or detail contain {@code text}. */
  public int count(String text) {
    String sql = "SELECT COUNT(*) FROM operator_audit" + where(text);
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select = connection.prepareStatement(sql)) {
      bindSearch(select, text);
      try (ResultSet rs = select.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the operator audit: " + e.getMessage(), e);
    }
  }

  /** Newest first; a page of no rows is empty without a query (SQL Server refuses FETCH 0). */
  public List<AuditEntry> page(String text, int offset, int limit) {
    if (limit < 1) {
      return List.of();
    }
    String sql =
        "SELECT id, occurred_at, operator_name, action, tenant_id, operation, idempotency_key,"
            + " reason, result, detail FROM operator_audit"
            + where(text)
            + " ORDER BY occurred_at DESC, id DESC OFFSET ? ROWS FETCH NEXT ? ROWS ONLY";
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select = connection.prepareStatement(sql)) {
      int next = bindSearch(select, text);
      select.setInt(next, Math.max(0, offset));
      select.setInt(next + 1, limit);
      return entries(select);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the operator audit: " + e.getMessage(), e);
    }
  }

  /**
   * The entries of one key, oldest first, at most {@code limit} (a payment's timeline). An index
   * seek on the key (V15), never a search over the whole audit.
   */
  public List<AuditEntry> ofKey(KeyRef ref, int limit) {
    if (limit < 1 || !printableAscii(ref.key()) || !printableAscii(ref.operation())) {
      // The library accepts no other key, so no entry can name one; and the casts below would
      // turn other characters into '?'.
      return List.of();
    }
    // The casts keep SQL Server's seek: its driver sends strings as nvarchar, which compared with
    // a varchar column converts the column instead (docs/sqlserver.md).
    String sql =
        "SELECT id, occurred_at, operator_name, action, tenant_id, operation, idempotency_key,"
            + " reason, result, detail FROM operator_audit"
            + " WHERE idempotency_key = CAST(? AS varchar(255)) AND tenant_id = ?"
            + " AND operation = CAST(? AS varchar(100))"
            + " ORDER BY occurred_at, id OFFSET 0 ROWS FETCH NEXT ? ROWS ONLY";
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select = connection.prepareStatement(sql)) {
      select.setString(1, ref.key());
      select.setString(2, ref.tenant());
      select.setString(3, ref.operation());
      select.setInt(4, limit);
      return entries(select);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the operator audit: " + e.getMessage(), e);
    }
  }

  private static List<AuditEntry> entries(PreparedStatement select) throws SQLException {
    List<AuditEntry> entries = new ArrayList<>();
    try (ResultSet rs = select.executeQuery()) {
      while (rs.next()) {
        entries.add(
            new AuditEntry(
                rs.getLong(1),
                rs.getObject(2, OffsetDateTime.class).toInstant(),
                rs.getString(3),
                rs.getString(4),
                rs.getString(5),
                rs.getString(6),
                rs.getString(7),
                rs.getString(8),
                rs.getString(9),
                rs.getString(10)));
      }
    }
    return entries;
  }

  private static boolean printableAscii(String text) {
    return text.chars().allMatch(c -> c >= 0x20 && c < 0x7f);
  }

  private static String where(String text) {
    return blank(text) ? "" : SEARCHED;
  }

  private static int bindSearch(PreparedStatement statement, String text) throws SQLException {
    if (blank(text)) {
      return 1;
    }
    String pattern = "%" + escapeLike(text.trim().toLowerCase(Locale.ROOT)) + "%";
    for (int i = 1; i <= SEARCHED_COLUMNS.size(); i++) {
      statement.setString(i, pattern);
    }
    return SEARCHED_COLUMNS.size() + 1;
  }

  /**
   * The search text as a LIKE pattern that matches it literally, one form for every database.
   * {@code %}, {@code _} and the escape character are special everywhere; {@code [} opens a set of
   * characters on SQL Server only ({@code ]} alone is an ordinary character there), and is escaped
   * everywhere, since H2 and PostgreSQL read an escaped ordinary character as that character (the
   * HTTP suite's audit search runs this very pattern on both).
   */
  static String escapeLike(String text) {
    StringBuilder pattern = new StringBuilder(text.length() + 8);
    for (char c : text.toCharArray()) {
      if (c == '%' || c == '_' || c == '[' || c == ESCAPE) {
        pattern.append(ESCAPE);
      }
      pattern.append(c);
    }
    return pattern.toString();
  }

  private static boolean blank(String text) {
    return text == null || text.isBlank();
  }

  private static String limit(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max);
  }
}
