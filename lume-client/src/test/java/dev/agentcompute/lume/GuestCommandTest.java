package dev.agentcompute.lume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The guest exec command line (docs/reference/capabilities.md#macos-guests, docs/macos.md), by user
 * and argument.
 */
class GuestCommandTest {
  @ParameterizedTest(name = "user \"{0}\"")
  @CsvSource(
      delimiter = '|',
      value = {
        "''|exec 'id'",
        "lume|exec 'id'",
        "501|exec 'id'",
        "root|exec sudo -n -- 'id'",
        "0|exec sudo -n -- 'id'",
        "1000|exec sudo -n -u '#1000' -- 'id'",
        "4294967295|exec sudo -n -u '#4294967295' -- 'id'"
      })
  void usersMapToTheLoginUserOrSudo(String user, String expected) {
    assertThat(GuestCommand.build(List.of("id"), Map.of(), "", user)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "user \"{0}\"")
  @CsvSource({"admin", "-1", "4294967296", "1e3", "lume2"})
  void otherUsersAreRefused(String user) {
    assertThatThrownBy(() -> GuestCommand.build(List.of("id"), Map.of(), "", user))
        .hasMessage("exec user must be lume, root, or a numeric UID");
  }

  @ParameterizedTest(name = "cwd \"{0}\"")
  @CsvSource({"relative/dir", "./here"})
  void cwdMustBeAbsolute(String cwd) {
    assertThatThrownBy(() -> GuestCommand.build(List.of("id"), Map.of(), cwd, ""))
        .hasMessage("cwd must be an absolute path");
  }

  @ParameterizedTest(name = "env name \"{0}\"")
  @CsvSource({"1ABC", "A-B", "'A B'"})
  void envNamesFollowTheShellGrammar(String name) {
    assertThatThrownBy(() -> GuestCommand.build(List.of("id"), Map.of(name, "v"), "", ""))
        .hasMessage("invalid environment variable name \"" + name + "\"");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"argv", "env", "cwd"})
  void nulBytesAreRefusedAnywhere(String where) {
    String nul = "a\0b";
    assertThatThrownBy(
            () ->
                GuestCommand.build(
                    where.equals("argv") ? List.of(nul) : List.of("id"),
                    where.equals("env") ? Map.of("K", nul) : Map.of(),
                    where.equals("cwd") ? "/" + nul : "",
                    ""))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @org.junit.jupiter.api.Test
  void quotesEnvSortedAndSingleQuotesEscaped() {
    assertThat(
            GuestCommand.build(
                List.of("printf", "%s", "it's"), Map.of("B", "2", "A", "x'y"), "/Users/lume", ""))
        .isEqualTo("cd '/Users/lume' && exec env A='x'\"'\"'y' B='2' 'printf' '%s' 'it'\"'\"'s'");
  }
}
