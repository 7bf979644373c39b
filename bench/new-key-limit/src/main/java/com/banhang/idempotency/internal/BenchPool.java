package com.banhang.idempotency.internal;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A fixed pool of connections for the bench, as the shop's {@code jdbc/shopLimits} pools them: a
 * connection taken is handed back, in auto-commit again, by its {@code close}. Without it every
 * take would open a connection of its own (the drivers' plain data sources do), and the bench would
 * measure PostgreSQL's log-in instead of the take.
 */
final class BenchPool implements DataSource, AutoCloseable {

  private final BlockingQueue<Connection> idle;

  BenchPool(DataSource target, int size) throws SQLException {
    idle = new ArrayBlockingQueue<>(size);
    for (int i = 0; i < size; i++) {
      idle.add(target.getConnection());
    }
  }

  @Override
  public Connection getConnection() throws SQLException {
    Connection physical;
    try {
      physical = idle.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("interrupted while waiting for a connection", e);
    }
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            new java.lang.reflect.InvocationHandler() {
              private boolean closed;

              @Override
              public Object invoke(Object proxy, java.lang.reflect.Method method, Object[] args)
                  throws Throwable {
                if (method.getName().equals("close")) {
                  if (!closed) {
                    closed = true;
                    if (!physical.getAutoCommit()) {
                      physical.rollback();
                      physical.setAutoCommit(true);
                    }
                    idle.add(physical);
                  }
                  return null;
                }
                if (method.getName().equals("isClosed")) {
                  return closed;
                }
                try {
                  return method.invoke(physical, args);
                } catch (InvocationTargetException e) {
                  throw e.getCause();
                }
              }
            });
  }

  /** Closes the connections, all of which must have been handed back. */
  @Override
  public void close() throws SQLException {
    for (Connection connection : idle) {
      connection.close();
    }
    idle.clear();
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return getConnection();
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
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException();
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    throw new SQLException("not a wrapper");
  }

  @Override
  public boolean isWrapperFor(Class<?> type) {
    return false;
  }
}
