package com.banhang.events.jdbc;

import com.banhang.events.TestDatabases;
import javax.sql.DataSource;

/**
 * The outbox's store on a real PostgreSQL (embedded binaries, one per test JVM), migrated from
 * sql/postgresql: the claim is FOR UPDATE SKIP LOCKED, a writer locks its aggregate.
 */
class PostgresOutboxStoreTest extends OutboxStoreContract {

  @Override
  DataSource dataSource() {
    return TestDatabases.postgres();
  }
}
