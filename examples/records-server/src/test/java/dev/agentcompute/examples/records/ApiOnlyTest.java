package dev.agentcompute.examples.records;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * A CodeMode host uses only CodeMode's API packages (docs/reference/codemode.md#public-surface):
 * the rule any host module can copy into its own architecture test.
 */
@AnalyzeClasses(
    packages = "dev.agentcompute.examples",
    importOptions = ImportOption.DoNotIncludeTests.class)
class ApiOnlyTest {

  @ArchTest
  static final ArchRule aHostUsesOnlyTheCodeModeApi =
      noClasses()
          .should()
          .dependOnClassesThat(
              resideInAPackage("dev.agentcompute.codemode..")
                  .and(
                      not(
                          resideInAnyPackage(
                              "dev.agentcompute.codemode",
                              "dev.agentcompute.codemode.authz",
                              "dev.agentcompute.codemode.authz.rego",
                              "dev.agentcompute.codemode.mcp"))))
          .as("a host uses only CodeMode's API packages");
}
