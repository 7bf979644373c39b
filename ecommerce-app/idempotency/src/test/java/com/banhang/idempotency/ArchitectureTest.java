package com.banhang.idempotency;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The library's boundaries: it knows no application, and its store SPI knows no web layer. */
@AnalyzeClasses(
    packages = "com.banhang.idempotency",
    importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  @ArchTest
  static final ArchRule library_dependsOnNoApplication =
      noClasses()
          .that()
          .resideInAPackage("com.banhang.idempotency..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("com.banhang.shop..", "com.banhang.gateway..")
          .because("the idempotency library is reused by applications and must not know them");

  @ArchTest
  static final ArchRule stores_dependNotOnInternal =
      noClasses()
          .that()
          .resideInAnyPackage("com.banhang.idempotency.spi..", "com.banhang.idempotency.jdbc..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("com.banhang.idempotency.internal..")
          .because(
              "the store SPI stands alone; the JAX-RS machinery in internal uses it, not the reverse");

  @ArchTest
  static final ArchRule spi_dependsNotOnItsImplementations =
      noClasses()
          .that()
          .resideInAPackage("com.banhang.idempotency.spi..")
          .should()
          .dependOnClassesThat()
          .resideInAPackage("com.banhang.idempotency.jdbc..")
          .because("the SPI says what a store does; each implementation depends on it, not back");

  @ArchTest
  static final ArchRule library_knowsNoUserInterface =
      noClasses()
          .that()
          .resideInAPackage("com.banhang.idempotency..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("com.vaadin..", "com.banhang.shop.admin..")
          .because("operator consoles read the library; the library never knows a console");

  /**
   * docs/idempotency.md, "Time": every time decision is the database's. The stores never read this
   * server's clock (the skew tests of the store contract prove the decisions, this keeps a new
   * statement from binding Instant.now() again).
   */
  @ArchTest
  static final ArchRule stores_readNoApplicationClock =
      noClasses()
          .that()
          .resideInAPackage("com.banhang.idempotency.jdbc..")
          .should()
          .callMethod(java.time.Instant.class, "now")
          .orShould()
          .callMethod(java.time.OffsetDateTime.class, "now", java.time.ZoneId.class)
          .orShould()
          .callMethod(java.time.OffsetDateTime.class, "now")
          .orShould()
          .callMethod(java.time.Clock.class, "systemUTC")
          .orShould()
          .callMethod(System.class, "currentTimeMillis")
          .because("the database's clock decides expiry, leases and ages on every node alike");

  /**
   * A request's life is moved by the gate's phase script and the two phases it hands work to
   * (docs/architecture.md): the filter, the interceptors and the exception mappers call the gate or
   * read the lifecycle, never move it.
   */
  @ArchTest
  static final ArchRule onlyTheGate_movesARequestsLife =
      methods()
          .that()
          .areDeclaredIn("com.banhang.idempotency.internal.RequestLifecycle")
          .and()
          .haveNameMatching(
              "admitted|answered|claimed|claimedInTransaction|executing|completedUncommitted"
                  + "|rejectionStored|outcomeUnknown|claimLost|released|keyPresented|keyExpires")
          .should()
          .onlyBeCalled()
          .byClassesThat()
          .haveNameMatching(
              "com\\.banhang\\.idempotency\\.internal\\.(IdempotencyGate|Admission|Settlement)")
          .because(
              "the gate is the algorithm; anything else moving the state is a blackboard again");
}
