package com.banhang.events;

import java.io.PrintWriter;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A data source over connections a test gives it, for the stores' tests in every package: one
 * connection that stands for a transaction, or whatever a test's own function hands out (a database
 * that goes down, say).
 */
public final class TestDataSource implements DataSource {

  /** Hands out a connection, or fails as a database would. */
  @FunctionalInterface
  public interface Connections {
    Connection get() throws SQLException;
  }

  private final Connections connections;

  private TestDataSource(Connections connections) {
    this.connections = connections;
  }

  /** A data source handing out what {@code connections} gives on each call. */
  public static DataSource handingOut(Connections connections) {
    return new TestDataSource(connections);
  }

  /**
   * A data source that always hands out {@code connection}, whose close does nothing: a transaction
   * that spans several calls of a store, as a JTA transaction's enlisted connection does in the
   * server.
   */
  public static DataSource oneConnection(Connection connection) {
    Connection unclosable =
        (Connection)
            Proxy.newProxyInstance(
                Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class},
                (proxy, method, args) ->
                    method.getName().equals("close") ? null : method.invoke(connection, args));
    return handingOut(() -> unclosable);
  }

  @Override
  public Connection getConnection() throws SQLException {
    return connections.get();
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return connections.get();
  }

  @Override
  public PrintWriter getLogWriter() {
    return null;
  }

  @Override
  public void setLogWriter(PrintWriter out) {}

  @Override
  public void setLoginTimeout(int seconds) {}

  @Override
  public int getLoginTimeout() {
    return 0;
  }

  @Override
  public Logger getParentLogger() {
    return Logger.getGlobal();
  }

  @Override
  public <T> T unwrap(Class<T> iface) {
    throw new UnsupportedOperationException();
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return false;
  }
}
