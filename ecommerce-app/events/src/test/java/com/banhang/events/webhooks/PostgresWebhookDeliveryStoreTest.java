package com.banhang.events.webhooks;

import com.banhang.events.TestDatabases;
import javax.sql.DataSource;

/**
 * The webhook deliveries' store on a real PostgreSQL (embedded binaries, one per test JVM),
 * migrated from sql/postgresql: the claim is FOR UPDATE SKIP LOCKED, a second hand-over ON CONFLICT
 * DO NOTHING.
 */
class PostgresWebhookDeliveryStoreTest extends WebhookDeliveryStoreContract {

  @Override
  DataSource dataSource() {
    return TestDatabases.postgres();
  }
}
