package dev.agentcompute.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.server.errors.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code authorization.rego} section (docs/reference/rego.md#server-configuration). */
class AuthorizationConfigTest {
  private static final String POLICY =
      """
      package agentcompute.authz

      default allow := false

      allow if input.capability.id == "image.list"

      visible if input.capability.id != "sandbox.delete"
      """;

  @TempDir Path dir;

  private Path config(String authorization) throws IOException {
    Path file = dir.resolve("etc/agentcompute.yaml");
    Files.createDirectories(file.getParent());
    Files.writeString(file, ConfigLoaderTest.MINIMAL + authorization);
    return file;
  }

  private void policy(String name, String content) throws IOException {
    Path file = dir.resolve("etc").resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
  }

  @Test
  void aPolicyIsCompiledFromFilesRelativeToTheConfiguration() throws IOException {
    policy("policy/authz.rego", POLICY);
    ServerConfig.Authorization a =
        ConfigLoader.load(
                config(
                    "authorization: {rego: {decision: data.agentcompute.authz.allow,"
                        + " discover: data.agentcompute.authz.visible, files: [policy/authz.rego]}}\n"))
            .config()
            .authorization()
            .orElseThrow();

    assertThat(a.files()).containsExactly(dir.resolve("etc/policy/authz.rego"));
    assertThat(a.discover()).contains("data.agentcompute.authz.visible");
    assertThat(a.digest()).startsWith("sha256:");
  }

  @Test
  void withoutTheSectionNoPolicyIsConfigured() throws IOException {
    assertThat(ConfigLoader.load(config("")).config().authorization()).isEmpty();
  }

  @Test
  void theDigestChangesWithThePolicyFile() throws IOException {
    policy("authz.rego", POLICY);
    Path file =
        config(
            "authorization: {rego: {decision: data.agentcompute.authz.allow, files: [authz.rego]}}\n");
    String first = ConfigLoader.load(file).config().authorization().orElseThrow().digest();
    policy("authz.rego", POLICY + "\nallow if input.capability.id == \"sandbox.list\"\n");

    assertThat(ConfigLoader.load(file).config().authorization().orElseThrow().digest())
        .isNotEqualTo(first);
  }

  @Test
  void aDecisionIsRequired() throws IOException {
    policy("authz.rego", POLICY);

    assertThatThrownBy(
            () -> ConfigLoader.load(config("authorization: {rego: {files: [authz.rego]}}\n")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("authorization.rego.decision is required");
  }

  @Test
  void atLeastOneFileIsRequired() throws IOException {
    assertThatThrownBy(
            () ->
                ConfigLoader.load(
                    config("authorization: {rego: {decision: data.x.allow, files: []}}\n")))
        .hasMessageContaining("authorization.rego.files must name at least one policy file");
  }

  @Test
  void aMissingFileIsNamed() throws IOException {
    assertThatThrownBy(
            () ->
                ConfigLoader.load(
                    config(
                        "authorization: {rego: {decision: data.x.allow, files: [nope.rego]}}\n")))
        .hasMessageContaining(
            "authorization.rego.files: " + dir.resolve("etc/nope.rego") + ": no such file");
  }

  @Test
  void invalidRegoIsAConfigurationErrorWithItsPosition() throws IOException {
    policy("authz.rego", "package agentcompute.authz\n\nallow if {\n");

    assertThatThrownBy(
            () ->
                ConfigLoader.load(
                    config(
                        "authorization: {rego: {decision: data.agentcompute.authz.allow,"
                            + " files: [authz.rego]}}\n")))
        .hasMessageContaining("authorization.rego: ")
        .hasMessageContaining("authz.rego:");
  }

  @Test
  void aNondeterministicBuiltinIsRefused() throws IOException {
    policy(
        "authz.rego",
        "package agentcompute.authz\n\nallow if http.send({\"method\": \"GET\", \"url\": \"x\"})\n");

    assertThatThrownBy(
            () ->
                ConfigLoader.load(
                    config(
                        "authorization: {rego: {decision: data.agentcompute.authz.allow,"
                            + " files: [authz.rego]}}\n")))
        .hasMessageContaining("authorization.rego: ")
        .hasMessageContaining("http.send");
  }
}
