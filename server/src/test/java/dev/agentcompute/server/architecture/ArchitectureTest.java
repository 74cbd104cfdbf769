package dev.agentcompute.server.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module and package structure of docs/architecture.md, checked on the main classes of every
 * module: dependencies point one way (server → capabilities → {codemode, incus-client, lume-client,
 * ovn}; codemode → {starlark, rego}); no package cycles inside capabilities or server; the
 * capability adapters and the services never see a backend's client types.
 */
class ArchitectureTest {
  private static final String STARLARK = "dev.agentcompute.starlark..";
  private static final String REGO = "dev.agentcompute.rego..";
  private static final String CODEMODE = "dev.agentcompute.codemode..";
  private static final String INCUS = "dev.agentcompute.incus..";
  private static final String LUME = "dev.agentcompute.lume..";
  private static final String OVN = "dev.agentcompute.ovn..";
  private static final String CAPABILITIES = "dev.agentcompute.capabilities..";
  private static final String SERVER = "dev.agentcompute.server..";

  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.agentcompute");
  }

  private static void check(ArchRule rule) {
    rule.check(classes);
  }

  @Test
  void theInterpretersDependOnNoOtherModule() {
    check(
        noClasses()
            .that()
            .resideInAPackage(STARLARK)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(REGO, CODEMODE, INCUS, LUME, OVN, CAPABILITIES, SERVER));
    check(
        noClasses()
            .that()
            .resideInAPackage(REGO)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(STARLARK, CODEMODE, INCUS, LUME, OVN, CAPABILITIES, SERVER));
  }

  @Test
  void codemodeDependsOnlyOnTheInterpreters() {
    check(
        noClasses()
            .that()
            .resideInAPackage(CODEMODE)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(INCUS, LUME, OVN, CAPABILITIES, SERVER));
  }

  @Test
  void theBackendClientsDependOnNoOtherModule() {
    for (String client : new String[] {INCUS, LUME, OVN}) {
      check(
          noClasses()
              .that()
              .resideInAPackage(client)
              .should()
              .dependOnClassesThat()
              .resideInAnyPackage(
                  other(client, INCUS, LUME, OVN, STARLARK, REGO, CODEMODE, CAPABILITIES, SERVER)));
    }
  }

  private static String[] other(String self, String... all) {
    return java.util.Arrays.stream(all).filter(p -> !p.equals(self)).toArray(String[]::new);
  }

  @Test
  void capabilitiesNeverReachBackIntoTheServer() {
    check(
        noClasses()
            .that()
            .resideInAPackage(CAPABILITIES)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(SERVER, STARLARK, REGO));
  }

  @Test
  void adaptersServicesModelAndPortsNeverTouchBackendClientTypes() {
    check(
        noClasses()
            .that()
            .resideInAnyPackage(
                "dev.agentcompute.capabilities.adapter..",
                "dev.agentcompute.capabilities.service..",
                "dev.agentcompute.capabilities.model..",
                "dev.agentcompute.capabilities.platform..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(INCUS, LUME, OVN));
  }

  @Test
  void capabilitiesHaveNoPackageCycles() {
    check(slices().matching("dev.agentcompute.capabilities.(**)").should().beFreeOfCycles());
    check(slices().matching("dev.agentcompute.(capabilities).*").should().beFreeOfCycles());
  }

  @Test
  void serverHasNoPackageCycles() {
    check(slices().matching("dev.agentcompute.server.(**)").should().beFreeOfCycles());
  }

  @Test
  void nothingButTheRootPackagesDependOnTheirModulesRootPackage() {
    // The root package of capabilities and of server is the wiring: nothing inside the module
    // depends on it, so it can depend on everything without making a cycle.
    check(
        noClasses()
            .that()
            .resideInAPackage("dev.agentcompute.capabilities.(*)..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("dev.agentcompute.capabilities"));
    check(
        noClasses()
            .that()
            .resideInAPackage("dev.agentcompute.server.(*)..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("dev.agentcompute.server"));
  }
}
