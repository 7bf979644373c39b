package com.banhang.itarq.app;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The business table, written with plain JDBC on the same data source as the idempotency keys.
 * Inside a JTA transaction every connection is the transaction's, so the widget row and the
 * completed key commit or roll back together.
 */
@ApplicationScoped
public class Widgets {

  @Resource(lookup = "jdbc/idem")
  DataSource dataSource;

  public void insert(String id, String name) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement insert =
            connection.prepareStatement("INSERT INTO widget (id, name) VALUES (?, ?)")) {
      insert.setString(1, id);
      insert.setString(2, name);
      insert.executeUpdate();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot insert widget " + id, e);
    }
  }

  public int countByName(String name) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement count =
            connection.prepareStatement("SELECT COUNT(*) FROM widget WHERE name = ?")) {
      count.setString(1, name);
      try (ResultSet rs = count.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot count widgets", e);
    }
  }

  public Optional<String> nameOf(String id) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select =
            connection.prepareStatement("SELECT name FROM widget WHERE id = ?")) {
      select.setString(1, id);
      try (ResultSet rs = select.executeQuery()) {
        return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read widget " + id, e);
    }
  }
}
