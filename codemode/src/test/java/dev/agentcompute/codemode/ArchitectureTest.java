package dev.agentcompute.codemode;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * CodeMode exports only its API packages (docs/reference/codemode.md#public-surface). The worker is
 * re-executed from the host's own class path, so a JPMS module boundary would not hold for
 * class-path hosts; these rules hold the boundary instead: the API never hands out an internal
 * type, and an internal class is public only because another CodeMode package uses it. Hosts check
 * their side with {@link #API_PACKAGES} (see examples/records-server's ApiOnlyTest).
 */
@AnalyzeClasses(
    packages = "dev.agentcompute.codemode",
    importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  /** What a host may use; {@code authz.rego} is the optional OPA adapter. */
  static final Set<String> API_PACKAGES =
      Set.of(
          "dev.agentcompute.codemode",
          "dev.agentcompute.codemode.authz",
          "dev.agentcompute.codemode.authz.rego",
          "dev.agentcompute.codemode.mcp");

  @ArchTest
  static final ArchRule theApiExposesNoInternalType =
      classes()
          .that(isApi())
          .and()
          .arePublic()
          .should(exposeOnlyApiTypes())
          .as("public API types expose no internal type in a public or protected signature");

  /**
   * Checked over all classes at once: a use of a nested class ({@code Frame.Exec}) counts as a use
   * of its top-level class.
   */
  @ArchTest
  static void anInternalClassIsPublicOnlyWhenAnotherPackageUsesIt(JavaClasses all) {
    Set<JavaClass> usedElsewhere = new HashSet<>();
    for (JavaClass origin : all) {
      for (Dependency d : origin.getDirectDependenciesFromSelf()) {
        JavaClass target = topLevel(d.getTargetClass());
        if (all.contain(target.getName())
            && !target.getPackageName().equals(origin.getPackageName())) {
          usedElsewhere.add(target);
        }
      }
    }
    List<String> needlesslyPublic = new ArrayList<>();
    for (JavaClass c : all) {
      if (c.isTopLevelClass()
          && c.getModifiers().contains(JavaModifier.PUBLIC)
          && isCodeModeInternal(c)
          && !usedElsewhere.contains(c)) {
        needlesslyPublic.add(c.getName());
      }
    }
    assertThat(needlesslyPublic)
        .as("internal classes that are public although only their own package uses them")
        .isEmpty();
  }

  private static DescribedPredicate<JavaClass> isApi() {
    return DescribedPredicate.describe(
        "are in an API package", c -> API_PACKAGES.contains(c.getPackageName()));
  }

  private static ArchCondition<JavaClass> exposeOnlyApiTypes() {
    return new ArchCondition<>("expose only API and foreign types") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        List<String> leaks = new ArrayList<>();
        for (JavaMember m : c.getMembers()) {
          if (!isExported(m.getModifiers())) {
            continue;
          }
          List<JavaType> types = new ArrayList<>();
          if (m instanceof JavaField f) {
            types.add(f.getType());
          } else if (m instanceof JavaCodeUnit u) {
            types.add(u.getReturnType());
            types.addAll(u.getParameterTypes());
            u.getThrowsClause().getTypes().forEach(types::add);
          }
          for (JavaType t : types) {
            for (JavaClass used : t.getAllInvolvedRawTypes()) {
              if (isCodeModeInternal(used)) {
                leaks.add(m.getFullName() + " uses " + used.getName());
              }
            }
          }
        }
        for (JavaType t : c.getInterfaces()) {
          t.getAllInvolvedRawTypes().stream()
              .filter(ArchitectureTest::isCodeModeInternal)
              .forEach(used -> leaks.add(c.getName() + " implements " + used.getName()));
        }
        c.getRawSuperclass()
            .filter(ArchitectureTest::isCodeModeInternal)
            .ifPresent(s -> leaks.add(c.getName() + " extends " + s.getName()));
        for (String leak : leaks) {
          events.add(SimpleConditionEvent.violated(c, leak));
        }
      }
    };
  }

  private static boolean isExported(Set<JavaModifier> modifiers) {
    return modifiers.contains(JavaModifier.PUBLIC) || modifiers.contains(JavaModifier.PROTECTED);
  }

  private static JavaClass topLevel(JavaClass c) {
    JavaClass top = c;
    while (top.getEnclosingClass().isPresent()) {
      top = top.getEnclosingClass().get();
    }
    return top;
  }

  private static boolean isCodeModeInternal(JavaClass c) {
    String pkg = topLevel(c).getPackageName();
    return pkg.startsWith("dev.agentcompute.codemode") && !API_PACKAGES.contains(pkg);
  }
}
