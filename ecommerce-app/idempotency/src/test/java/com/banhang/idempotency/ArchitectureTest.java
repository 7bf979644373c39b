package com.banhang.idempotency;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;

/**
 * The library's boundaries: it knows no application, its store SPI knows no web layer, and its
 * packages are layered without a cycle: the API (the root package) depends on none of the others,
 * the SPI on the API alone, the JDBC stores on the API and the SPI, the internals on all three.
 */
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

  /**
   * The layers. A cycle through the API (the API importing an internal class that imports the API)
   * made the public package impossible to read, test or replace on its own.
   */
  @ArchTest
  static final ArchRule packages_areLayered_apiSpiJdbcInternal =
      layeredArchitecture()
          .consideringOnlyDependenciesInLayers()
          .layer("API")
          .definedBy("com.banhang.idempotency")
          .layer("SPI")
          .definedBy("com.banhang.idempotency.spi..")
          .layer("JDBC")
          .definedBy("com.banhang.idempotency.jdbc..")
          .layer("Internal")
          .definedBy("com.banhang.idempotency.internal..")
          .whereLayer("Internal")
          .mayNotBeAccessedByAnyLayer()
          .whereLayer("JDBC")
          .mayOnlyBeAccessedByLayers("Internal")
          .whereLayer("SPI")
          .mayOnlyBeAccessedByLayers("JDBC", "Internal");

  /**
   * The API package is what an application compiles against: it names no class of the store SPI,
   * the JDBC stores or the internals, so that none of them leaks into an application's types.
   */
  @ArchTest
  static final ArchRule api_dependsOnNoOtherPackageOfTheLibrary =
      noClasses()
          .that()
          .resideInAPackage("com.banhang.idempotency")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "com.banhang.idempotency.spi..",
              "com.banhang.idempotency.jdbc..",
              "com.banhang.idempotency.internal..")
          .because("the API is implemented by the library's packages, never built on them");

  /** No cycle among the sub-packages (spi, jdbc, internal). */
  @ArchTest
  static final ArchRule subPackages_areFreeOfCycles =
      slices().matching("com.banhang.idempotency.(*)..").should().beFreeOfCycles();

  /**
   * No cycle among all the library's packages, the API included: {@code (*)..} does not match the
   * root package itself, so the rule above cannot see a cycle that runs through it.
   */
  @ArchTest
  static final ArchRule packages_includingTheApi_areFreeOfCycles =
      slices().assignedFrom(new PackagesAndTheApi()).should().beFreeOfCycles();

  /** One slice per first sub-package of the library, and one, "api", for the root package. */
  static final class PackagesAndTheApi implements SliceAssignment {

    private static final String ROOT = "com.banhang.idempotency";

    @Override
    public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
      String name = javaClass.getPackageName();
      if (name.equals(ROOT)) {
        return SliceIdentifier.of("api");
      }
      if (name.startsWith(ROOT + ".")) {
        return SliceIdentifier.of(name.substring(ROOT.length() + 1).split("\\.")[0]);
      }
      return SliceIdentifier.ignore();
    }

    @Override
    public String getDescription() {
      return "the packages of com.banhang.idempotency, the root package as 'api'";
    }
  }
}
