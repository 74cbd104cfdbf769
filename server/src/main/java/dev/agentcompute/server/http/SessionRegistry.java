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
 * that identity may use or delete it, and a session nobody used for the idle timeout is ended. At
 * most {@code maxSessions} live at once and {@code maxPerIdentity} per identity: a new session past
 * a cap takes the place of the least recently used session without an open stream, and is refused
 * when every session under that cap is in use.
 */
final class SessionRegistry {
  private static final Logger LOG = System.getLogger(SessionRegistry.class.getName());

  private final Map<String, HttpSession> sessions = new ConcurrentHashMap<>();
  private final Duration idleTimeout;
  private final LongSupplier nanoClock;
  private final int maxSessions;
  private final int maxPerIdentity;

  SessionRegistry(Duration idleTimeout, LongSupplier nanoClock) {
    this(idleTimeout, nanoClock, Integer.MAX_VALUE, Integer.MAX_VALUE);
  }

  SessionRegistry(
      Duration idleTimeout, LongSupplier nanoClock, int maxSessions, int maxPerIdentity) {
    this.idleTimeout = idleTimeout;
    this.nanoClock = nanoClock;
    this.maxSessions = maxSessions;
    this.maxPerIdentity = maxPerIdentity;
  }

  /** A session refused because a cap is reached and every session under it is in use. */
  record Full(String key, int limit, String message) {}

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

  /**
   * Adds {@code session} unless a cap forbids it, first evicting the least recently used session
   * not in use of its owner (per-identity cap), then of anyone (total cap). Admissions are
   * serialised so that concurrent initializations cannot overshoot a cap.
   */
  synchronized Optional<Full> admit(String id, HttpSession session) {
    String owner = session.owner;
    if (count(owner) >= maxPerIdentity && !evictLeastRecentlyUsed(owner)) {
      return Optional.of(
          new Full(
              FrontDoor.MAX_SESSIONS_PER_IDENTITY,
              maxPerIdentity,
              "identity \""
                  + owner
                  + "\" already has "
                  + maxPerIdentity
                  + " MCP sessions in use (limit "
                  + FrontDoor.MAX_SESSIONS_PER_IDENTITY
                  + " = "
                  + maxPerIdentity
                  + "); end one with DELETE"));
    }
    if (sessions.size() >= maxSessions && !evictLeastRecentlyUsed(null)) {
      return Optional.of(
          new Full(
              FrontDoor.MAX_SESSIONS,
              maxSessions,
              "the server already has "
                  + maxSessions
                  + " MCP sessions in use (limit "
                  + FrontDoor.MAX_SESSIONS
                  + " = "
                  + maxSessions
                  + ")"));
    }
    sessions.put(id, session);
    return Optional.empty();
  }

  private int count(String owner) {
    int n = 0;
    for (HttpSession s : sessions.values()) {
      if (s.owner.equals(owner)) {
        n++;
      }
    }
    return n;
  }

  /** Ends the least recently used session not in use (of {@code owner}, or anyone's if null). */
  private boolean evictLeastRecentlyUsed(String owner) {
    HttpSession oldest = null;
    for (HttpSession s : sessions.values()) {
      if ((owner == null || s.owner.equals(owner))
          && !s.inUse()
          && (oldest == null || s.lastUsed() - oldest.lastUsed() < 0)) {
        oldest = s;
      }
    }
    if (oldest == null || !remove(oldest)) {
      return false;
    }
    oldest.closeStreams();
    oldest.mcp.delete().onErrorResume(x -> Mono.empty()).subscribe();
    LOG.log(
        Level.INFO,
        "evicted the least recently used idle MCP session of "
            + oldest.owner
            + " to admit a new one");
    return true;
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

  /** Ends every session of these identities at once (their token was revoked); returns how many. */
  int closeOwnedBy(java.util.Set<String> owners) {
    int closed = 0;
    for (Map.Entry<String, HttpSession> e : sessions.entrySet()) {
      if (owners.contains(e.getValue().owner) && sessions.remove(e.getKey(), e.getValue())) {
        e.getValue().closeStreams();
        e.getValue().mcp.delete().onErrorResume(x -> Mono.empty()).subscribe();
        closed++;
      }
    }
    return closed;
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
