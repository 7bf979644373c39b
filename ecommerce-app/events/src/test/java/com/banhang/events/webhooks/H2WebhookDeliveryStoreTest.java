package com.banhang.events.webhooks;

import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;

/** The webhook deliveries' store on H2, the embedded default, migrated from sql/h2. */
class H2WebhookDeliveryStoreTest extends WebhookDeliveryStoreContract {

  private static DataSource dataSource;

  @BeforeAll
  static void createDatabase() {
    dataSource = Databases.h2();
  }

  @Override
  DataSource dataSource() {
    return dataSource;
  }
}
