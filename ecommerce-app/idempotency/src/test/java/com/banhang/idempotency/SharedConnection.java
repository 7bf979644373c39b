package com.banhang.idempotency;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import javax.sql.DataSource;

/**
 * A data source that hands out one connection every time and never closes it: what a store sees
 * inside a JTA transaction on a server, where every statement runs on the transaction's connection.
 */
public final class SharedConnection {

  private SharedConnection() {}

  public static DataSource of(Connection connection) {
    Connection unclosable =
        (Connection)
            Proxy.newProxyInstance(
                Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("close")) {
                    return null;
                  }
                  try {
                    return method.invoke(connection, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    return (DataSource)
        Proxy.newProxyInstance(
            DataSource.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              if (method.getName().equals("getConnection")) {
                return unclosable;
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }
}
