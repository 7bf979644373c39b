package com.banhang.itarq.app;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import javax.sql.DataSource;

/**
 * What a method saw of its own key while it ran: the status of the key's row as another transaction
 * sees it, that is only once the claim has committed.
 */
@ApplicationScoped
public class ClaimObserver {

  @Resource(lookup = "jdbc/idem")
  DataSource dataSource;

  private final ConcurrentMap<String, String> seen = new ConcurrentHashMap<>();

  /** In a transaction of its own, so it reads only what other transactions committed. */
  @Transactional(Transactional.TxType.REQUIRES_NEW)
  public String committedStatus(String tenant, String operation, String key) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select =
            connection.prepareStatement(
                "SELECT status FROM idempotency_record"
                    + " WHERE tenant_id = ? AND operation = ? AND idempotency_key = ?")) {
      select.setString(1, tenant);
      select.setString(2, operation);
      select.setString(3, key);
      try (ResultSet rs = select.executeQuery()) {
        return rs.next() ? rs.getString(1) : "no committed row";
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the key of " + key, e);
    }
  }

  void saw(String key, String what) {
    seen.put(key, what);
  }

  public String seenBy(String key) {
    return seen.get(key);
  }
}
