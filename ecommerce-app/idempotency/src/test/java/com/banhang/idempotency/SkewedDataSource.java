package com.banhang.idempotency;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.OffsetDateTime;
import javax.sql.DataSource;

/**
 * A data source as seen by an application server whose clock is {@code appAhead} ahead of the
 * database's (behind when negative), though both run on this machine's one clock: every timestamp
 * the application binds is shifted by {@code +appAhead} on its way to the database, and every
 * timestamp it reads by {@code -appAhead} on its way back. Times the database computes itself stay
 * in the database's frame, so code that takes its time decisions from the database is unaffected,
 * while code that compares a stored time with the application's clock, or sends one, is off by
 * {@code appAhead}, exactly as on a node with a skewed clock.
 */
public final class SkewedDataSource {

  private SkewedDataSource() {}

  public static DataSource of(DataSource database, Duration appAhead) {
    return proxy(DataSource.class, database, appAhead);
  }

  @SuppressWarnings("unchecked")
  private static <T> T proxy(Class<T> type, Object target, Duration appAhead) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          Object[] arguments = args == null ? null : args.clone();
          if (arguments != null
              && method.getName().startsWith("set")
              && arguments.length >= 2
              && arguments[1] instanceof OffsetDateTime time) {
            arguments[1] = time.plus(appAhead);
          }
          Object result;
          try {
            result = method.invoke(target, arguments);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          if (type == ResultSet.class && result instanceof OffsetDateTime time) {
            return time.minus(appAhead);
          }
          return wrap(method, result, appAhead);
        };
    return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler);
  }

  private static Object wrap(Method method, Object result, Duration appAhead) {
    Class<?> returned = method.getReturnType();
    if (result == null) {
      return null;
    }
    if (returned == Connection.class) {
      return proxy(Connection.class, result, appAhead);
    }
    if (returned == CallableStatement.class) {
      return proxy(CallableStatement.class, result, appAhead);
    }
    if (returned == PreparedStatement.class) {
      return proxy(PreparedStatement.class, result, appAhead);
    }
    if (returned == Statement.class) {
      return proxy(Statement.class, result, appAhead);
    }
    if (returned == ResultSet.class) {
      return proxy(ResultSet.class, result, appAhead);
    }
    return result;
  }
}
