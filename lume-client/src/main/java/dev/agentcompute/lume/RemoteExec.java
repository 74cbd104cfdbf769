package dev.agentcompute.lume;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.SshConstants;
import org.apache.sshd.common.util.buffer.Buffer;

/**
 * Runs one command in an SSH exec channel: stdin written then closed, stdout and stderr collected
 * up to a limit each, the exit status returned. On cancellation (interrupt) or an exec deadline the
 * remote process gets {@code SIGKILL} and the channel is closed.
 */
final class RemoteExec {
  private static final long POLL_MILLIS = 20;

  private RemoteExec() {}

  /** What to do with output past the limit. */
  enum Overflow {
    /** Stop the command: more output is an error (host scripts). */
    FAIL,
    /** Keep the first bytes, drain and drop the rest, and say so (guest exec). */
    TRUNCATE
  }

  /**
   * @param exitStatus the remote exit status, {@code null} when none arrived (signal, transport)
   * @param timedOut the exec deadline passed and the command was killed
   * @param overflowed a stream passed its limit under {@link Overflow#FAIL}
   */
  record Outcome(
      Integer exitStatus,
      byte[] stdout,
      byte[] stderr,
      boolean stdoutTruncated,
      boolean stderrTruncated,
      boolean timedOut,
      boolean overflowed) {}

  static Outcome run(
      ClientSession session,
      String command,
      byte[] stdin,
      int limit,
      Overflow overflow,
      Duration timeout)
      throws IOException, InterruptedException {
    Capped out = new Capped(limit);
    Capped err = new Capped(limit);
    ChannelExec channel = session.createExecChannel(command);
    try {
      channel.setOut(out);
      channel.setErr(err);
      channel.open().verify(SshSessions.DIAL_TIMEOUT);
      try (OutputStream in = channel.getInvertedIn()) {
        if (stdin != null && stdin.length > 0) {
          in.write(stdin);
          in.flush();
        }
      }
      Instant deadline = timeout == null ? null : Instant.now().plus(timeout);
      boolean timedOut = false;
      while (true) {
        if (channel.isClosed()) {
          break;
        }
        try {
          // MINA's waitFor swallows interrupts; a short sleep lets cancellation through.
          Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
          kill(session, channel);
          throw e;
        }
        if (overflow == Overflow.FAIL && (out.overflowed() || err.overflowed())) {
          kill(session, channel);
          return new Outcome(null, out.bytes(), err.bytes(), true, true, false, true);
        }
        if (deadline != null && !Instant.now().isBefore(deadline)) {
          kill(session, channel);
          timedOut = true;
          break;
        }
      }
      if (overflow == Overflow.FAIL && (out.overflowed() || err.overflowed())) {
        return new Outcome(null, out.bytes(), err.bytes(), true, true, false, true);
      }
      return new Outcome(
          timedOut ? null : channel.getExitStatus(),
          out.bytes(),
          err.bytes(),
          out.overflowed(),
          err.overflowed(),
          timedOut,
          false);
    } finally {
      channel.close(true);
    }
  }

  /**
   * Sends the {@code signal KILL} channel request (RFC 4254 §6.9), then closes the channel; MINA's
   * client has no method for it.
   */
  private static void kill(ClientSession session, ChannelExec channel) {
    try {
      Buffer buffer = session.createBuffer(SshConstants.SSH_MSG_CHANNEL_REQUEST, 32);
      buffer.putUInt(channel.getRecipient());
      buffer.putString("signal");
      buffer.putBoolean(false);
      buffer.putString("KILL");
      session.writePacket(buffer);
    } catch (IOException | RuntimeException alreadyGone) {
      // Closing the channel below is all that is left to do.
    }
    channel.close(false);
  }

  /** Keeps the first {@code limit} bytes; counts the rest so callers know output was lost. */
  static final class Capped extends OutputStream {
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private final int limit;
    private volatile boolean overflowed;

    Capped(int limit) {
      this.limit = limit;
    }

    @Override
    public synchronized void write(int b) {
      if (kept.size() < limit) {
        kept.write(b);
      } else {
        overflowed = true;
      }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      int room = Math.min(len, limit - kept.size());
      if (room > 0) {
        kept.write(b, off, room);
      }
      if (room < len) {
        overflowed = true;
      }
    }

    boolean overflowed() {
      return overflowed;
    }

    synchronized byte[] bytes() {
      return kept.toByteArray();
    }
  }
}
