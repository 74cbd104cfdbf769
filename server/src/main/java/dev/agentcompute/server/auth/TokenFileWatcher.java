package dev.agentcompute.server.auth;

import dev.agentcompute.server.config.Digests;
import dev.agentcompute.server.errors.CredentialException;
import dev.agentcompute.server.observe.Log;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Keeps the bearer tokens in step with their file, as the configuration is: the file is polled (a
 * digest of its content, so an editor's rename or a same-second write is seen) and a changed file
 * that parses replaces every token at once; one that does not parse is logged and the tokens in
 * force stay. {@link #reload} does the same on demand (the admin API). Listeners hear the
 * identities whose token stopped working, so their sessions and executes can end at once.
 */
public final class TokenFileWatcher implements AutoCloseable {
  private static final Log LOG = Log.of(TokenFileWatcher.class);

  private final Path file;
  private final BearerTokens tokens;
  private final Duration poll;
  private final List<Consumer<Set<String>>> revocationListeners = new CopyOnWriteArrayList<>();
  private String lastSeen;
  private volatile Thread thread;

  public TokenFileWatcher(Path file, BearerTokens tokens, Duration poll) {
    this.file = file;
    this.tokens = tokens;
    this.poll = poll;
    this.lastSeen = digestOrMissing();
  }

  /** What a reload did: the identities now accepted, and those whose token stopped working. */
  public record Result(List<String> identities, Set<String> revoked) {}

  /** Calls {@code listener} with the identities whose token a reload removed or changed. */
  public void onRevoked(Consumer<Set<String>> listener) {
    revocationListeners.add(listener);
  }

  /**
   * Reads the file now and puts its tokens in force.
   *
   * @throws CredentialException when the file cannot be read or parsed (the tokens in force stay)
   */
  public synchronized Result reload() {
    lastSeen = digestOrMissing();
    BearerTokens next = BearerTokensFile.load(file);
    Set<String> revoked = tokens.replaceWith(next);
    LOG.info(
        "bearer tokens reloaded",
        "identities",
        String.join(",", tokens.identities()),
        "revoked",
        String.join(",", revoked));
    if (!revoked.isEmpty()) {
      revocationListeners.forEach(l -> l.accept(revoked));
    }
    return new Result(tokens.identities(), revoked);
  }

  /** Polls the file every {@code poll} on a virtual thread until closed. */
  public TokenFileWatcher start() {
    thread = Thread.ofVirtual().name("token-file-watcher").start(this::loop);
    return this;
  }

  private void loop() {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(poll);
        checkOnce();
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        LOG.error("bearer token file check failed", e);
      }
    }
  }

  /** Reloads when the file's content changed since the last look; true if it did reload. */
  synchronized boolean checkOnce() {
    String seen = digestOrMissing();
    if (seen.equals(lastSeen)) {
      return false;
    }
    try {
      reload();
      return true;
    } catch (CredentialException e) {
      lastSeen = seen; // report a broken file once, not every poll
      LOG.error(
          "bearer token file rejected; the tokens in force stay",
          "file",
          file,
          "error",
          e.getMessage());
      return false;
    }
  }

  private String digestOrMissing() {
    try {
      return HexFormat.of().formatHex(Digests.sha256(Files.readAllBytes(file)));
    } catch (IOException e) {
      return "missing";
    }
  }

  @Override
  public void close() {
    Thread t = thread;
    if (t != null) {
      t.interrupt();
    }
  }
}
