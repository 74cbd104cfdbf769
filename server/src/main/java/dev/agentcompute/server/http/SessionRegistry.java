package dev.agentcompute.server.http;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import reactor.core.publisher.Mono;

/**
 * The live MCP sessions of the HTTP transport, each bound to the identity that created it: only
 * that identity may use or delete it, and a session nobody used for the idle timeout is ended.
 */
final class SessionRegistry {
  private static final Logger LOG = System.getLogger(SessionRegistry.class.getName());

  private final Map<String, HttpSession> sessions = new ConcurrentHashMap<>();
  private final Duration idleTimeout;
  private final LongSupplier nanoClock;

  SessionRegistry(Duration idleTimeout, LongSupplier nanoClock) {
    this.idleTimeout = idleTimeout;
    this.nanoClock = nanoClock;
  }

  /** Why a request names no usable session. */
  enum Refusal {
    MISSING,
    UNKNOWN,
    OTHER_IDENTITY
  }

  /** A lookup: the session, or why there is none for this caller. */
  record Lookup(Optional<HttpSession> session, Optional<Refusal> refusal) {}

  void add(String id, HttpSession session) {
    sessions.put(id, session);
  }

  /** The session {@code id} of {@code subject}, touched as used now. */
  Lookup find(Optional<String> id, String subject) {
    if (id.isEmpty() || id.get().isBlank()) {
      return new Lookup(Optional.empty(), Optional.of(Refusal.MISSING));
    }
    HttpSession s = sessions.get(id.get());
    if (s == null) {
      return new Lookup(Optional.empty(), Optional.of(Refusal.UNKNOWN));
    }
    if (!s.owner.equals(subject)) {
      return new Lookup(Optional.empty(), Optional.of(Refusal.OTHER_IDENTITY));
    }
    s.touch(nanoClock.getAsLong());
    return new Lookup(Optional.of(s), Optional.empty());
  }

  void touch(HttpSession s) {
    s.touch(nanoClock.getAsLong());
  }

  long now() {
    return nanoClock.getAsLong();
  }

  boolean remove(HttpSession s) {
    return sessions.remove(s.mcp.getId(), s);
  }

  int size() {
    return sessions.size();
  }

  Collection<HttpSession> all() {
    return sessions.values();
  }

  /** Ends every session's listening stream (drain: requests in flight continue). */
  void closeListeningStreams() {
    sessions.values().forEach(HttpSession::closeListeningStreams);
  }

  /** Ends every session and forgets it. */
  void closeAll() {
    sessions
        .values()
        .forEach(
            s -> {
              s.closeStreams();
              s.mcp.closeGracefully().onErrorResume(e -> Mono.empty()).block(Duration.ofSeconds(2));
            });
    sessions.clear();
  }

  /** Ends sessions idle for longer than the timeout; called periodically. */
  int expireIdle() {
    long cutoff = nanoClock.getAsLong() - idleTimeout.toNanos();
    int expired = 0;
    for (Map.Entry<String, HttpSession> e : sessions.entrySet()) {
      if (e.getValue().idleSince(cutoff) && sessions.remove(e.getKey(), e.getValue())) {
        e.getValue().closeStreams();
        e.getValue().mcp.delete().onErrorResume(x -> Mono.empty()).subscribe();
        expired++;
      }
    }
    if (expired > 0) {
      LOG.log(Level.DEBUG, "expired idle sessions count=" + expired);
    }
    return expired;
  }
}
