package com.banhang.shop.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RuntimeGrantsTest {

  @Test
  void theAuditLosesEverythingButInsertAndSelect_afterTheSchemaWideGrant() {
    var statements = RuntimeGrants.postgresql("shop_runtime");
    int grant =
        statements.indexOf(
            "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO"
                + " \"shop_runtime\"");
    int revoke =
        statements.indexOf(
            "REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON operator_audit FROM"
                + " \"shop_runtime\"");
    int timeline =
        statements.indexOf(
            "REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON payment_timeline FROM"
                + " \"shop_runtime\"");
    assertThat(grant).isNotNegative();
    assertThat(revoke).isGreaterThan(grant);
    assertThat(timeline).isGreaterThan(grant);
  }

  @Test
  void aRoleNameThatIsNotAPlainIdentifier_isRefused() {
    assertThatThrownBy(() -> RuntimeGrants.postgresql("shop\"; DROP TABLE payment; --"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RuntimeGrants.postgresql("Shop"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void onH2TheAuditIsAppendOnlyAndFlywaysHistoryReadOnly() {
    var statements =
        RuntimeGrants.h2(
            "shop_runtime",
            "it's",
            java.util.List.of(
                "OPERATOR_AUDIT", "PAYMENT_TIMELINE", "PAYMENT", "flyway_schema_history"));

    assertThat(statements)
        .contains("CREATE USER IF NOT EXISTS \"SHOP_RUNTIME\" PASSWORD 'it''s'")
        .contains("GRANT SELECT, INSERT ON \"PUBLIC\".\"OPERATOR_AUDIT\" TO \"SHOP_RUNTIME\"")
        .contains("GRANT SELECT, INSERT ON \"PUBLIC\".\"PAYMENT_TIMELINE\" TO \"SHOP_RUNTIME\"")
        .contains(
            "GRANT SELECT, INSERT, UPDATE, DELETE ON \"PUBLIC\".\"PAYMENT\" TO \"SHOP_RUNTIME\"")
        .contains("GRANT SELECT ON \"PUBLIC\".\"flyway_schema_history\" TO \"SHOP_RUNTIME\"");
    assertThatThrownBy(() -> RuntimeGrants.h2("shop\"; DROP", "x", java.util.List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
