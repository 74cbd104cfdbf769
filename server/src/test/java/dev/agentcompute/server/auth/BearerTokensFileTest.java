package dev.agentcompute.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.server.errors.CredentialException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BearerTokensFileTest {
  private static BearerTokens parse(String json) {
    return BearerTokensFile.parse(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void identifiesEachEntryByItsToken() {
    BearerTokens tokens = parse("{\"alice\":\"tok-a\", \"bob\":\"tok-b\"}");
    assertThat(tokens.identities()).containsExactly("alice", "bob");
    assertThat(tokens.identify("tok-a")).contains("alice");
    assertThat(tokens.identify("tok-b")).contains("bob");
    assertThat(tokens.identify("tok-c")).isEmpty();
    assertThat(tokens.identify("")).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "empty file          | ''                                | bearer credential file must be a JSON object of identity names to tokens",
        "array               | '[\"a\"]'                         | bearer credential file must be a JSON object of identity names to tokens",
        "string              | '\"secret-token\"'                | bearer credential file must be a JSON object of identity names to tokens",
        "number value        | '{\"a\":1}'                       | invalid bearer credential entry",
        "object value        | '{\"a\":{\"t\":\"x\"}}'           | invalid bearer credential entry",
        "null value          | '{\"a\":null}'                    | invalid bearer credential entry",
        "truncated           | '{\"a\":\"secret-token\"'         | invalid bearer credential entry",
        "syntax error        | '{\"a\" \"secret-token\"}'        | invalid bearer credential entry",
        "empty name          | '{\"\":\"secret-token\"}'         | bearer identity names and tokens must be nonempty strings without whitespace or control characters",
        "empty token         | '{\"a\":\"\"}'                    | bearer identity names and tokens must be nonempty strings without whitespace or control characters",
        "space in token      | '{\"a\":\"secret token\"}'        | bearer identity names and tokens must be nonempty strings without whitespace or control characters",
        "tab in name         | '{\"a\\tb\":\"secret-token\"}'    | bearer identity names and tokens must be nonempty strings without whitespace or control characters",
        "nbsp in token       | '{\"a\":\"secret\u00a0token\"}'   | bearer identity names and tokens must be nonempty strings without whitespace or control characters",
        "control in token    | '{\"a\":\"secret\\u0001token\"}'  | bearer identity names and tokens must be nonempty strings without whitespace or control characters",
        "duplicate name      | '{\"a\":\"secret-1\",\"a\":\"secret-2\"}' | bearer credential file contains a duplicate identity or token",
        "duplicate token     | '{\"a\":\"secret-1\",\"b\":\"secret-1\"}' | bearer credential file contains a duplicate identity or token",
        "no entries          | '{}'                              | bearer credential file must contain at least one identity",
        "trailing object     | '{\"a\":\"secret-1\"}{}'          | unexpected data after bearer credential object",
        "trailing garbage    | '{\"a\":\"secret-1\"} secret-x'   | unexpected data after bearer credential object",
      })
  void rejectsMalformedFilesWithTheSpecMessage(String name, String json, String message) {
    assertThatThrownBy(() -> parse(json))
        .isInstanceOf(CredentialException.class)
        .hasMessage(message)
        .satisfies(e -> assertThat(e.getMessage()).contains("bearer").doesNotContain("secret"));
  }

  @Test
  void trailingWhitespaceIsFine() {
    assertThat(parse("{\"a\":\"t1\"}\n\n").identities()).containsExactly("a");
  }

  @Test
  void missingFileNamesThePathButNoContent(@TempDir Path dir) {
    Path missing = dir.resolve("nope.json");
    assertThatThrownBy(() -> BearerTokensFile.load(missing))
        .isInstanceOf(CredentialException.class)
        .hasMessage("open bearer credential file: " + missing + ": no such file");
  }

  @Test
  void loadsFromDisk(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("tokens.json");
    Files.writeString(file, "{\"ci\":\"abc123\"}");
    assertThat(BearerTokensFile.load(file).identify("abc123")).contains("ci");
  }
}
