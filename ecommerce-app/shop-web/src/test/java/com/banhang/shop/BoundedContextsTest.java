package com.banhang.shop;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The boundaries of STYLE.md, checked on the compiled classes rather than hoped for. */
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
