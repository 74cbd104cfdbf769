package dev.agentcompute.incus;

import java.time.Duration;

/**
 * Runs one command over the exec websockets ({@link ExecSockets}): stdin written and ended by an
 * empty text message, outputs captured (bounded) until each one's end marker, exit code from the
 * finished operation; an output that closed before its end marker is an error. At the deadline, or
 * when the caller interrupts, the command gets signal 9 on the control socket; teardown after that
 * is bounded to five seconds.
 */
final class ExecSession {

  private final Rest rest;
  private final Scope scope;
  private final String instance;
  private final ExecRequest request;
  private final ExecOutputListener listener;

  ExecSession(Rest rest, Scope scope, String instance, ExecRequest request) {
    this(rest, scope, instance, request, null);
  }

  ExecSession(
      Rest rest, Scope scope, String instance, ExecRequest request, ExecOutputListener listener) {
    this.rest = rest;
    this.scope = scope;
    this.instance = instance;
    this.request = request;
    this.listener = listener;
  }

  /** {@code capture}, and a copy of each write to the listener, if there is one. */
  private ExecSocket.Sink sink(BoundedCapture capture, boolean stderr) {
    if (listener == null) {
      return capture;
    }
    return new ExecSocket.Sink() {
      @Override
      public void write(java.nio.ByteBuffer data) {
        byte[] copy = new byte[data.remaining()];
        data.duplicate().get(copy);
        capture.write(data);
        try {
          listener.output(stderr, copy);
        } catch (RuntimeException e) {
          // Only a view of the output: it never changes the result.
        }
      }

      @Override
      public void end(String lost) {
        capture.end(lost);
      }
    };
  }

  ExecResult run() {
    long deadline = System.nanoTime() + request.deadline().toNanos();
    ExecSockets sockets = ExecSockets.start(rest, scope, instance, request);
    String what = sockets.what();
    BoundedCapture stdout = new BoundedCapture(ExecResult.MAX_CAPTURE);
    BoundedCapture stderr = new BoundedCapture(ExecResult.MAX_CAPTURE);
    try {
      try {
        if (!sockets.open(sink(stdout, false), sink(stderr, true), deadline)) {
          return killed(sockets, stdout, stderr);
        }
        ExecSocket stdin = sockets.stdin();
        // A command that does not read stdin may already be gone, its sockets closed.
        if (request.stdin().length == 0) {
          // Nothing to send: closing at once is immediate EOF.
          stdin.close();
        } else if (stdin.isOpen()) {
          try {
            stdin.send(request.stdin());
            // Then the end of input the way Incus's own client says it: an empty text message
            // (Incus closes the command's stdin on it). Closing the websocket right after the data
            // raced it now and then, and the command read nothing.
            stdin.send("");
          } catch (org.java_websocket.exceptions.WebsocketNotConnectedException gone) {
            // Nothing to deliver to any more; the exit code tells what happened.
          }
        }
        if (!awaitOutputs(sockets, deadline)) {
          return killed(sockets, stdout, stderr);
        }
      } catch (InterruptedException e) {
        cancelled(sockets);
        throw new IncusException.Cancelled(what + ": cancelled by the caller");
      }
      long remaining = deadline - System.nanoTime();
      Operation done;
      try {
        done = sockets.awaitOperation(Duration.ofNanos(Math.max(remaining, 1)));
      } catch (IncusException.TimedOut e) {
        return killed(sockets, stdout, stderr);
      } catch (IncusException.Cancelled e) {
        cancelled(sockets);
        throw e;
      }
      int exitCode = sockets.exitCode(done);
      requireWhole(what, sockets.stdout(), sockets.stderr(), exitCode, stderr);
      return new ExecResult(
          exitCode, stdout.bytes(), stderr.bytes(), stdout.truncated(), stderr.truncated(), false);
    } finally {
      sockets.closeAll(System.nanoTime() + ExecSockets.TEARDOWN.toNanos());
    }
  }

  /**
   * An output whose socket closed before its end marker may have lost bytes: that is an error,
   * never a result (an agent must not take partial output for all the command printed). The exit
   * code and the stderr that did arrive go into the message for whoever has to find out why.
   */
  static void requireWhole(
      String what, ExecSocket out, ExecSocket err, int exitCode, BoundedCapture stderr) {
    String stdoutLost = out.incomplete();
    String stderrLost = err.incomplete();
    if (stdoutLost == null && stderrLost == null) {
      return;
    }
    StringBuilder message = new StringBuilder(what).append(": output incomplete: ");
    if (stdoutLost != null) {
      message.append("stdout: ").append(stdoutLost);
    }
    if (stderrLost != null) {
      message.append(stdoutLost == null ? "" : "; ").append("stderr: ").append(stderrLost);
    }
    String received = new String(stderr.bytes(), java.nio.charset.StandardCharsets.UTF_8);
    message
        .append("; the command exited with ")
        .append(exitCode)
        .append(", stderr received: \"")
        .append(received.length() > 200 ? received.substring(0, 200) + "..." : received)
        .append("\" (run it again; it may have had effects already)");
    throw new IncusException.Failed(0, message.toString(), null);
  }

  private static boolean awaitOutputs(ExecSockets sockets, long deadline)
      throws InterruptedException {
    return sockets.stdout().awaitClosed(Math.max(deadline - System.nanoTime(), 0))
        && sockets.stderr().awaitClosed(Math.max(deadline - System.nanoTime(), 0));
  }

  /** Deadline passed: kill, let the output drain (bounded), report timed out. */
  private static ExecResult killed(
      ExecSockets sockets, BoundedCapture stdout, BoundedCapture stderr) {
    long teardown = System.nanoTime() + ExecSockets.TEARDOWN.toNanos();
    boolean interrupted = Thread.interrupted();
    try {
      sockets.signalKill();
      int exitCode = -1;
      try {
        sockets.awaitDataClosed(teardown);
        long left = teardown - System.nanoTime();
        if (left > 0) {
          Operation done = sockets.awaitOperation(Duration.ofNanos(left));
          exitCode = ExecSockets.exitCodeOr(done, -1);
        }
      } catch (InterruptedException | IncusException e) {
        // Teardown is best effort within its bound; the result already says timed out.
      }
      return new ExecResult(
          exitCode, stdout.bytes(), stderr.bytes(), stdout.truncated(), stderr.truncated(), true);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Caller interrupted: kill the command and give it a bounded moment to go; keep the interrupt
   * flag.
   */
  private static void cancelled(ExecSockets sockets) {
    Thread.interrupted();
    long teardown = System.nanoTime() + ExecSockets.TEARDOWN.toNanos();
    try {
      sockets.signalKill();
      sockets.awaitDataClosed(teardown);
    } catch (InterruptedException ignored) {
      // Still bounded: closeAll follows.
    } finally {
      Thread.currentThread().interrupt();
    }
  }
}
