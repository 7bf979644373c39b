package com.banhang.shop;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

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
  void operatorConsole_usesOtherContextsOnlyThroughTheirApi() {
    noClasses()
        .that()
        .resideInAPackage("com.banhang.shop.admin..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "com.banhang.shop.orders.domain..",
            "com.banhang.shop.orders.application..",
            "com.banhang.shop.orders.infrastructure..",
            "com.banhang.shop.orders.rest..",
            "com.banhang.shop.payments.domain..",
            "com.banhang.shop.payments.application..",
            "com.banhang.shop.payments.infrastructure..",
            "com.banhang.shop.payments.rest..",
            "com.banhang.idempotency.internal..")
        .because(
            "the console talks to the contexts' published api (implemented by their application"
                + " services), never their REST resources, their domain or the gateway")
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
    // RuntimeGrants names the table only to keep rights on it away from the runtime login.
    org.assertj.core.api.Assertions.assertThat(naming)
        .containsExactlyInAnyOrder(
            "com.banhang.shop.admin.application.AuditLog", "com.banhang.shop.web.RuntimeGrants");
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
        .resideInAnyPackage(
            "com.banhang.idempotency.spi..",
            "com.banhang.idempotency.jdbc..",
            "com.banhang.idempotency.internal..")
        .because(
            "the library's public API is the package com.banhang.idempotency itself; its store"
                + " SPI, its JDBC stores and its internals may change without notice")
        .check(shop);
  }

  /** The REST resources of the bounded contexts (the console's own are admin-ui's business). */
  private static final String[] CONTEXT_REST = {
    "com.banhang.shop.orders.rest..", "com.banhang.shop.payments.rest.."
  };

  @Test
  void contextApis_dependOnNoRestResource() {
    noClasses()
        .that()
        .resideInAPackage("com.banhang.shop.*.api..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(CONTEXT_REST)
        .because(
            "a context's api is what other contexts call; its REST resources are one caller of the"
                + " application, not part of that contract")
        .check(shop);
  }

  @Test
  void contextApis_holdOnlyContracts_theirImplementationsLiveInApplication() {
    classes()
        .that()
        .resideInAPackage("com.banhang.shop.*.api")
        .should()
        .beInterfaces()
        .orShould()
        .beRecords()
        .orShould()
        .beEnums()
        .because(
            "a context's api package is its published facade (interfaces, records, events);"
                + " application services, with their scopes and transactions, live in application"
                + " (package-info of each api package)")
        .check(shop);
  }

  @Test
  void applicationServices_dependOnNoRestResource() {
    noClasses()
        .that()
        .resideInAPackage("com.banhang.shop.*.application..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(CONTEXT_REST)
        .because(
            "the REST layer calls the application, never the other way round: the answer a"
                + " payment stores for its key is the application's own (PayOrder)")
        .check(shop);
  }

  /**
   * The top-level contexts (orders, payments, admin, web) depend on each other in one direction
   * only: the rules above forbid the known wrong edges one by one, this one any cycle at all.
   */
  @Test
  void contexts_areFreeOfCycles() {
    slices()
        .matching("com.banhang.shop.(*)..")
        .should()
        .beFreeOfCycles()
        .because("a cycle between contexts makes them one context that cannot change alone")
        .check(shop);
  }

  /**
   * Within a context, the layers (api, application, domain, infrastructure, rest) call one way
   * only: an api implemented by application must not be the home of resources that call
   * application, or the two would depend on each other.
   */
  @Test
  void payments_hasNoPackageCycles() {
    slices().matching("com.banhang.shop.payments.(*)..").should().beFreeOfCycles().check(shop);
  }

  @Test
  void orders_hasNoPackageCycles() {
    slices().matching("com.banhang.shop.orders.(*)..").should().beFreeOfCycles().check(shop);
  }
}
