package com.banhang.shop.admin.application;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The override resolutions waiting for a second operator (table {@code operator_override_proposal},
 * docs/operations.md). Approval is one conditional UPDATE, so two operators approving at once, or
 * on two nodes, approve it once, and the proposer never can.
 */
@ApplicationScoped
public class OverrideProposals {

  private static final String COLUMNS =
      "id, proposed_at, proposed_by, tenant_id, idempotency_key, charge_id, reason, status,"
          + " decided_by";

  @Resource(lookup = "jdbc/shop")
  DataSource dataSource;

  /** Records a proposal; its id. */
  public long propose(String operator, KeyRef ref, String chargeId, String reason) {
    String sql =
        "INSERT INTO operator_override_proposal (proposed_at, proposed_by, tenant_id,"
            + " idempotency_key, charge_id, reason, status) VALUES (?, ?, ?, ?, ?, ?, ?)";
    try (Connection connection = dataSource.getConnection();
        PreparedStatement insert =
            connection.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
      insert.setObject(1, OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS));
      insert.setString(2, operator);
      insert.setString(3, ref.tenant());
      insert.setString(4, ref.key());
      insert.setString(5, chargeId);
      insert.setString(6, limit(reason, 1000));
      insert.setString(7, OverrideProposal.PROPOSED);
      insert.executeUpdate();
      try (ResultSet keys = insert.getGeneratedKeys()) {
        keys.next();
        return keys.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot record the override proposal: " + e.getMessage(), e);
    }
  }

  public Optional<OverrideProposal> find(long id) {
    List<OverrideProposal> found =
        select("SELECT " + COLUMNS + " FROM operator_override_proposal WHERE id = ?", id);
    return found.stream().findFirst();
  }

  /** Proposals still waiting for approval, oldest first. */
  public List<OverrideProposal> pending() {
    return select(
        "SELECT "
            + COLUMNS
            + " FROM operator_override_proposal WHERE status = ? ORDER BY proposed_at, id",
        OverrideProposal.PROPOSED);
  }

  /**
   * Marks a waiting proposal approved by {@code approver}, who must not be its proposer: whether
   * this call did (false: unknown, already decided, or the proposer's own).
   */
  public boolean approve(long id, String approver) {
    return update(
            "UPDATE operator_override_proposal SET status = ?, decided_by = ?, decided_at = ?"
                + " WHERE id = ? AND status = ? AND proposed_by <> ?",
            OverrideProposal.APPROVED,
            approver,
            OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS),
            id,
            OverrideProposal.PROPOSED,
            approver)
        == 1;
  }

  /** Puts an approved proposal back to waiting, when its resolution could not be run now. */
  public void reopen(long id) {
    update(
        "UPDATE operator_override_proposal SET status = ?, decided_by = NULL, decided_at = NULL"
            + " WHERE id = ? AND status = ?",
        OverrideProposal.PROPOSED,
        id,
        OverrideProposal.APPROVED);
  }

  private int update(String sql, Object... parameters) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement update = connection.prepareStatement(sql)) {
      bind(update, parameters);
      return update.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot update override proposals: " + e.getMessage(), e);
    }
  }

  private List<OverrideProposal> select(String sql, Object... parameters) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select = connection.prepareStatement(sql)) {
      bind(select, parameters);
      List<OverrideProposal> found = new ArrayList<>();
      try (ResultSet rs = select.executeQuery()) {
        while (rs.next()) {
          found.add(
              new OverrideProposal(
                  rs.getLong(1),
                  rs.getObject(2, OffsetDateTime.class).toInstant(),
                  rs.getString(3),
                  new KeyRef(rs.getString(4), StuckOperations.PAYMENTS_CHARGE, rs.getString(5)),
                  rs.getString(6),
                  rs.getString(7),
                  rs.getString(8),
                  rs.getString(9)));
        }
      }
      return found;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read override proposals: " + e.getMessage(), e);
    }
  }

  private static void bind(PreparedStatement statement, Object... parameters) throws SQLException {
    for (int i = 0; i < parameters.length; i++) {
      statement.setObject(i + 1, parameters[i]);
    }
  }

  private static String limit(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max);
  }
}
