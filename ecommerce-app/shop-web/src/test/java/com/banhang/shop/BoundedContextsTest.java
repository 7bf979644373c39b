package com.banhang.shop;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The boundaries of the bounded contexts (README), checked on the compiled classes rather than
 * hoped for.
 */
class BoundedContextsTest {

  private static JavaClasses shop;

  @BeforeAll
  static void importShop() {
    shop =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("com.banhang");
  }

  @Test
  void payments_readOrdersOnlyThroughTheOrdersApi() {
    noClasses()
        .that()
        .resideInAPackage("com.banhang.shop.payments..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "com.banhang.shop.orders.domain..",
            "com.banhang.shop.orders.application..",
            "com.banhang.shop.orders.infrastructure..")
        .check(shop);
  }

  @Test
  void orders_knowNothingOfPayments() {
    noClasses()
        .that()
        .resideInAPackage("com.banhang.shop.orders..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("com.banhang.shop.payments..")
        .check(shop);
  }

  @Test
  void domainModels_dependOnNoOuterLayer() {
    noClasses()
        .that()
        .resideInAPackage("com.banhang.shop.*.domain..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "com.banhang.shop.*.application..",
            "com.banhang.shop.*.infrastructure..",
            "com.banhang.shop.*.api..",
            "com.banhang.idempotency..",
            "jakarta.ws.rs..")
        .check(shop);
  }

  @Test
  void applicationServices_callTheGatewayOnlyThroughTheirPort() {
    noClasses()
        .that()
        .resideOutsideOfPackage("com.banhang.shop.payments.infrastructure.gateway..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("com.banhang.shop.payments.infrastructure.gateway..")
        .check(shop);
  }

  @Test
  void operatorConsole_usesOtherContextsOnlyThroughTheirApplicationApi() {
    noClasses()
        .that()
        .resideInAPackage("com.banhang.shop.admin..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "com.banhang.shop.orders.domain..",
            "com.banhang.shop.orders.infrastructure..",
            "com.banhang.shop.orders.api.rest..",
            "com.banhang.shop.payments.domain..",
            "com.banhang.shop.payments.application..",
            "com.banhang.shop.payments.infrastructure..",
            "com.banhang.shop.payments.api.rest..",
            "com.banhang.idempotency.internal..")
        .because(
            "the console talks to the contexts' application services, never their REST"
                + " resources, their domain or the gateway")
        .check(shop);
  }

  @Test
  void noContext_dependsOnTheOperatorConsole() {
    noClasses()
        .that()
        .resideInAnyPackage(
            "com.banhang.shop.orders..", "com.banhang.shop.payments..", "com.banhang.idempotency..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("com.banhang.shop.admin..")
        .check(shop);
  }

  @Test
  void onlyTheAuditLog_namesTheAuditTable_andItNeverUpdatesOrDeletesIt() throws Exception {
    // The audit is append-only: no other class may even name its table, so no UPDATE or DELETE of
    // it can hide anywhere in the application; the one that does only inserts and selects.
    java.util.List<String> naming = new java.util.ArrayList<>();
    String auditLog = null;
    for (com.tngtech.archunit.core.domain.JavaClass javaClass : shop) {
      if (javaClass.getSource().isEmpty()) {
        continue;
      }
      String text;
      try (java.io.InputStream in = javaClass.getSource().get().getUri().toURL().openStream()) {
        text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
      }
      if (text.contains("operator_audit")) {
        naming.add(javaClass.getName());
        if (javaClass.getName().endsWith(".AuditLog")) {
          auditLog = text;
        }
      }
    }
    org.assertj.core.api.Assertions.assertThat(naming)
        .containsExactly("com.banhang.shop.admin.application.AuditLog");
    org.assertj.core.api.Assertions.assertThat(auditLog)
        .contains("INSERT INTO operator_audit")
        .doesNotContain("UPDATE operator_audit", "DELETE FROM operator_audit");
  }

  @Test
  void idempotencyLibrary_knowsNoApplication() {
    noClasses()
        .that()
        .resideInAPackage("com.banhang.idempotency..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("com.banhang.shop..", "com.banhang.gateway..")
        .check(shop);
  }

  @Test
  void theShop_neverUsesTheSandboxCode() {
    noClasses()
        .that()
        .resideInAPackage("com.banhang.shop..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("com.banhang.gateway..")
        .check(shop);
  }

  @Test
  void theShop_usesTheIdempotencyLibraryOnlyThroughItsApi() {
    noClasses()
        .that()
        .resideInAPackage("com.banhang.shop..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("com.banhang.idempotency.internal..")
        .check(shop);
  }
}
