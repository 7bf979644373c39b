package com.banhang.shop.admin.ui;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The console works only through the application services: never the idempotency library, the
 * bounded contexts' infrastructure or the REST layer, so what an operator does is always what the
 * audited services do.
 */
@AnalyzeClasses(
    packages = "com.banhang.shop.admin",
    importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  @ArchTest
  static final ArchRule uiUsesOnlyTheApplicationServices =
      noClasses()
          .that()
          .resideInAPackage("com.banhang.shop.admin.ui..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "com.banhang.idempotency..",
              "..payments..infrastructure..",
              "..orders..infrastructure..",
              "jakarta.ws.rs..");
}
