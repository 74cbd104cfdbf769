package dev.agentcompute.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.server.errors.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdminConfigTest {
  @TempDir Path dir;

  private ServerConfig load(String extra) throws Exception {
    Path file = dir.resolve("agentcompute.yaml");
    Files.writeString(file, ConfigLoaderTest.MINIMAL + extra);
    return ConfigLoader.load(file).config();
  }

  @Test
  void withoutTheKeyNobodyIsAnOperator() throws Exception {
    assertThat(load("").admin().operators()).isEmpty();
    assertThat(load("").admin().isOperator("development")).isFalse();
  }

  @Test
  void operatorsAreAGrantOfTheirOwnApartFromSandboxOperators() throws Exception {
    ServerConfig c =
        load(
            "admin: {operators: [alice]}\n"
                + "sandbox: {access: owner, operators: [bob], default_network_kind: ovn}\n");
    assertThat(c.admin().isOperator("alice")).isTrue();
    assertThat(c.admin().isOperator("bob")).isFalse();
    assertThat(c.sandbox().isolation().operators()).containsExactly("bob");
  }

  @Test
  void anEmptyOperatorIsNamed() {
    assertThatThrownBy(() -> load("admin: {operators: [alice, \"\"]}\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("admin.operators entries must be identities, got an empty one");
  }

  @Test
  void anUnknownAdminKeyIsNamed() {
    assertThatThrownBy(() -> load("admin: {operator: [alice]}\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("unknown key \"admin.operator\"");
  }
}
