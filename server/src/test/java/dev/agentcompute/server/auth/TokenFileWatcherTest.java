package dev.agentcompute.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.server.errors.CredentialException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenFileWatcherTest {
  @TempDir Path dir;

  @Test
  void anEditedFileReplacesTheTokensAndNamesTheRevokedIdentities() throws Exception {
    Path file = dir.resolve("tokens.json");
    Files.writeString(file, "{\"alice\": \"a1\", \"bob\": \"b1\", \"carol\": \"c1\"}");
    BearerTokens tokens = BearerTokensFile.load(file);
    TokenFileWatcher watcher = new TokenFileWatcher(file, tokens, Duration.ofSeconds(2));
    List<Set<String>> heard = new ArrayList<>();
    watcher.onRevoked(heard::add);

    assertThat(watcher.checkOnce()).as("unchanged file").isFalse();
    // bob removed, carol's token rotated, alice kept
    Files.writeString(file, "{\"alice\": \"a1\", \"carol\": \"c2\"}");
    assertThat(watcher.checkOnce()).isTrue();

    assertThat(tokens.identify("b1")).isEmpty();
    assertThat(tokens.identify("c1")).isEmpty();
    assertThat(tokens.identify("c2")).contains("carol");
    assertThat(tokens.identify("a1")).contains("alice");
    assertThat(heard).containsExactly(Set.of("bob", "carol"));
  }

  @Test
  void aBrokenFileKeepsTheTokensInForce() throws Exception {
    Path file = dir.resolve("tokens.json");
    Files.writeString(file, "{\"alice\": \"a1\"}");
    BearerTokens tokens = BearerTokensFile.load(file);
    TokenFileWatcher watcher = new TokenFileWatcher(file, tokens, Duration.ofSeconds(2));
    Files.writeString(file, "{\"alice\": ");
    assertThat(watcher.checkOnce()).isFalse();
    assertThat(tokens.identify("a1")).contains("alice");
    assertThatThrownBy(watcher::reload).isInstanceOf(CredentialException.class);
    assertThat(tokens.identify("a1")).contains("alice");
  }
}
