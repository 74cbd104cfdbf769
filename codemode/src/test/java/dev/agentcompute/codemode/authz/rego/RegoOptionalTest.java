package dev.agentcompute.codemode.authz.rego;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * codemode depends on rego optionally: a host without it that builds a RegoAuthorizer is told what
 * to add, not handed a NoClassDefFoundError (the JVM would raise one while verifying RegoAuthorizer
 * if it caught a rego exception itself; {@link RegoCalls} holds those catches).
 */
class RegoOptionalTest {

  @Test
  void withoutRegoOnTheClassPathCreateNamesTheMissingArtifact() throws Exception {
    String classPath =
        Arrays.stream(expandedClassPath().split(File.pathSeparator))
            .filter(e -> !e.contains(File.separator + "rego" + File.separator))
            .filter(e -> !new File(e).getName().startsWith("rego-"))
            .collect(Collectors.joining(File.pathSeparator));
    assertThat(run(classPath))
        .startsWith("dev.agentcompute.codemode.authz.rego.RegoPolicyError: ")
        .contains(RegoRuntime.MISSING);
    assertThat(run(expandedClassPath())).isEqualTo("created");
  }

  private static String run(String classPath) throws Exception {
    String java = ProcessHandle.current().info().command().orElseThrow();
    Process p =
        new ProcessBuilder(java, "-cp", classPath, RegoMissingMain.class.getName())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return out;
  }

  /** Surefire may hand the JVM a manifest-only jar; the entries it names are what counts. */
  private static String expandedClassPath() throws Exception {
    String cp = System.getProperty("java.class.path");
    String[] entries = cp.split(File.pathSeparator);
    if (entries.length == 1 && entries[0].endsWith(".jar")) {
      try (var jar = new java.util.jar.JarFile(entries[0])) {
        String listed = jar.getManifest().getMainAttributes().getValue("Class-Path");
        if (listed != null) {
          return Arrays.stream(listed.split(" "))
              .filter(s -> !s.isBlank())
              .map(s -> new File(new File(entries[0]).getParentFile().toURI().resolve(s)).getPath())
              .collect(Collectors.joining(File.pathSeparator));
        }
      }
    }
    return cp;
  }
}
