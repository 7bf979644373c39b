package com.banhang.events.jdbc;

import java.io.PrintWriter;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A data source that always hands out one connection, whose close does nothing: a transaction that
 * spans several calls of the store, as a JTA transaction's enlisted connection does in the server.
 */
final class OneConnection implements DataSource {

  private final Connection connection;

  OneConnection(Connection connection) {
    this.connection =
        (Connection)
            Proxy.newProxyInstance(
                Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class},
                (proxy, method, args) ->
                    method.getName().equals("close") ? null : method.invoke(connection, args));
  }

  @Override
  public Connection getConnection() {
    return connection;
  }

  @Override
  public Connection getConnection(String username, String password) {
    return connection;
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
