package com.banhang.events;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The events library stands alone: it knows nothing of the application that uses it, its API (the
 * root package) depends on none of its implementations, the SQL support both stores share knows
 * neither store, and its packages form no cycle.
 */
class ArchitectureTest {

  private static JavaClasses library;

  @BeforeAll
  static void importLibrary() {
    library =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("com.banhang.events");
  }

  @Test
  void theLibraryKnowsNothingOfTheShop() {
    noClasses()
        .that()
        .resideInAPackage("com.banhang.events..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("com.banhang.shop..", "com.banhang.idempotency..")
        .check(library);
  }

  @Test
  void theApiDependsOnNoImplementation() {
    noClasses()
        .that()
        .resideInAPackage("com.banhang.events")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "com.banhang.events.jdbc..",
            "com.banhang.events.webhooks..",
            "com.banhang.events.sql..")
        .check(library);
  }

  @Test
  void theSqlSupportKnowsNeitherStore() {
    noClasses()
        .that()
        .resideInAPackage("com.banhang.events.sql..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("com.banhang.events.jdbc..", "com.banhang.events.webhooks..")
        .check(library);
  }

  @Test
  void noPackageCycle() {
    slices().matching("com.banhang.events.(**)").should().beFreeOfCycles().check(library);
  }
}
