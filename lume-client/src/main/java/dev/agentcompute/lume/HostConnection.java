package dev.agentcompute.lume;

import java.time.Duration;
import org.apache.sshd.client.session.ClientSession;

/**
 * The one SSH connection to the Mac host: opened on first use, shared by every API request, host
 * script and guest login, and dialled again when it was lost (the Mac slept, sshd restarted).
 */
final class HostConnection implements AutoCloseable {
  private final SshSessions ssh;
  private final SshEndpoint endpoint;
  private final Duration dialTimeout;
  private ClientSession session;

  HostConnection(SshSessions ssh, SshEndpoint endpoint, Duration dialTimeout) {
    this.ssh = ssh;
    this.endpoint = endpoint;
    this.dialTimeout = dialTimeout;
  }

  SshEndpoint endpoint() {
    return endpoint;
  }

  /** The open, authenticated session, dialling again when the last one is gone. */
  synchronized ClientSession session() throws LumeException.Unavailable {
    if (session != null && session.isOpen() && session.isAuthenticated()) {
      return session;
    }
    if (session != null) {
      session.close(true);
      session = null;
    }
    session = ssh.login(endpoint, endpoint.host(), endpoint.port(), dialTimeout);
    return session;
  }

  /** Drops a session a caller found broken, so the next use dials again. */
  synchronized void discard(ClientSession broken) {
    if (broken == session && session != null) {
      session.close(true);
      session = null;
    }
  }

  /** True while a session is open (no dialling). */
  synchronized boolean connected() {
    return session != null && session.isOpen();
  }

  @Override
  public synchronized void close() {
    if (session != null) {
      session.close(true);
      session = null;
    }
  }
}
