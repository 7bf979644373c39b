package com.banhang.gateway.sandbox.charge;

import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/** Fresh in-memory H2 databases for tests, one per call, kept open until the JVM ends. */
final class H2Databases {

  private H2Databases() {}

  static DataSource fresh() {
    JdbcDataSource dataSource = new JdbcDataSource();
    dataSource.setURL("jdbc:h2:mem:gateway-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    dataSource.setUser("sa");
    return dataSource;
  }

  static ChargeRepository freshRepository() {
    ChargeRepository repository = new ChargeRepository(fresh());
    repository.createSchemaIfAbsent();
    return repository;
  }
}
