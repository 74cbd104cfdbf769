package dev.agentcompute.incus;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one command over the exec websockets: {@code POST .../exec} with wait-for-websocket, then
 * control + stdin + stdout + stderr sockets, stdin written and ended by an empty text message,
 * outputs captured (bounded), exit code from the finished operation. At the deadline, or when the
 * caller interrupts, the command gets signal 9 on the control socket; teardown after that is
 * bounded to five seconds.
 */
final class ExecSession {

  static final Duration TEARDOWN = Duration.ofSeconds(5);
  private static final String KILL = "{\"command\":\"signal\",\"signal\":9}";

  private final Rest rest;
  private final Scope scope;
  private final String instance;
  private final ExecRequest request;
  private final String what;
  private final List<ExecSocket> sockets = new ArrayList<>();
  private ExecSocket control;

  ExecSession(Rest rest, Scope scope, String instance, ExecRequest request) {
    this.rest = rest;
    this.scope = scope;
    this.instance = instance;
    this.request = request;
    this.what = "exec " + request.command() + " in " + instance;
  }

  ExecResult run() {
    long deadline = System.nanoTime() + request.deadline().toNanos();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("command", request.command());
    body.put("environment", request.environment());
    if (request.cwd() != null) {
      body.put("cwd", request.cwd());
    }
    if (request.user() != null) {
      body.put("user", request.user());
    }
    body.put("wait-for-websocket", true);
    body.put("interactive", false);
    PendingOperation operation =
        rest.async(
            scope, "POST", "/1.0/instances/" + Scope.segment(instance) + "/exec", body, null);
    BoundedCapture stdout = new BoundedCapture(ExecResult.MAX_CAPTURE);
    BoundedCapture stderr = new BoundedCapture(ExecResult.MAX_CAPTURE);
    try {
      ExecSocket stdin;
      ExecSocket out;
      ExecSocket err;
      try {
        Map<String, String> fds = fds(operation);
        control = open(operation, fds.get("control"), null);
        stdin = open(operation, fds.get("0"), null);
        out = open(operation, fds.get("1"), stdout);
        err = open(operation, fds.get("2"), stderr);
        for (ExecSocket socket : sockets) {
          long wait = Math.min(deadline - System.nanoTime(), Duration.ofSeconds(10).toNanos());
          if (!socket.awaitOpen(Math.max(wait, 0))) {
            if (System.nanoTime() - deadline >= 0) {
              return killed(operation, stdout, stderr);
            }
            throw new IncusException.Unavailable(
                0,
                what
                    + ": exec websocket did not open"
                    + (socket.failure() == null ? "" : ": " + socket.failure()),
                socket.failure());
          }
        }
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
        if (!awaitOutputs(out, err, deadline)) {
          return killed(operation, stdout, stderr);
        }
      } catch (InterruptedException e) {
        cancelled(operation);
        throw new IncusException.Cancelled(what + ": cancelled by the caller");
      }
      long remaining = deadline - System.nanoTime();
      Operation done;
      try {
        done =
            rest.waitOperation(
                scope, operation.id(), Duration.ofNanos(Math.max(remaining, 1)), what);
      } catch (IncusException.TimedOut e) {
        return killed(operation, stdout, stderr);
      } catch (IncusException.Cancelled e) {
        cancelled(operation);
        throw e;
      }
      if (done.statusCode() == 400) {
        throw Errors.fromOperationFailure(done.err(), what);
      }
      return new ExecResult(
          exitCode(done),
          stdout.bytes(),
          stderr.bytes(),
          stdout.truncated(),
          stderr.truncated(),
          false);
    } finally {
      closeAll(System.nanoTime() + TEARDOWN.toNanos());
    }
  }

  private boolean awaitOutputs(ExecSocket out, ExecSocket err, long deadline)
      throws InterruptedException {
    return out.awaitClosed(Math.max(deadline - System.nanoTime(), 0))
        && err.awaitClosed(Math.max(deadline - System.nanoTime(), 0));
  }

  /** Deadline passed: kill, let the output drain (bounded), report timed out. */
  private ExecResult killed(
      PendingOperation operation, BoundedCapture stdout, BoundedCapture stderr) {
    long teardown = System.nanoTime() + TEARDOWN.toNanos();
    boolean interrupted = Thread.interrupted();
    try {
      signalKill();
      int exitCode = -1;
      try {
        for (ExecSocket socket : sockets) {
          if (socket != control) {
            socket.awaitClosed(Math.max(teardown - System.nanoTime(), 0));
          }
        }
        long left = teardown - System.nanoTime();
        if (left > 0) {
          Operation done = rest.waitOperation(scope, operation.id(), Duration.ofNanos(left), what);
          exitCode = exitCodeOr(done, -1);
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
  private void cancelled(PendingOperation operation) {
    Thread.interrupted();
    long teardown = System.nanoTime() + TEARDOWN.toNanos();
    try {
      signalKill();
      for (ExecSocket socket : sockets) {
        if (socket != control) {
          socket.awaitClosed(Math.max(teardown - System.nanoTime(), 0));
        }
      }
    } catch (InterruptedException ignored) {
      // Still bounded: closeAll follows.
    } finally {
      Thread.currentThread().interrupt();
    }
  }

  private void signalKill() {
    if (control != null && control.isOpen()) {
      try {
        control.send(KILL);
      } catch (RuntimeException ignored) {
        // The control socket went away: the command is already gone.
      }
    }
  }

  private void closeAll(long until) {
    boolean interrupted = Thread.interrupted();
    try {
      for (ExecSocket socket : sockets) {
        if (!socket.isFinished()) {
          socket.close();
        }
      }
      for (ExecSocket socket : sockets) {
        try {
          if (!socket.awaitClosed(Math.max(until - System.nanoTime(), 0))) {
            socket.closeConnection(1006, "teardown bound reached");
          }
        } catch (InterruptedException e) {
          socket.closeConnection(1006, "teardown interrupted");
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private ExecSocket open(PendingOperation operation, String secret, BoundedCapture sink) {
    if (secret == null) {
      throw new IncusException.Failed(
          0, what + ": exec operation did not offer all four websockets", null);
    }
    Transport transport = rest.transport();
    String path =
        scope.apply(
            "/1.0/operations/"
                + Scope.segment(operation.id())
                + "/websocket?secret="
                + Scope.encode(secret));
    ExecSocket socket =
        new ExecSocket(
            transport.webSocketUri(path),
            transport.webSocketSockets(),
            transport.verifiesHostname(),
            sink);
    sockets.add(socket);
    socket.connect();
    return socket;
  }

  @SuppressWarnings("unchecked")
  private Map<String, String> fds(PendingOperation operation) {
    Object fds = operation.started().metadata().get("fds");
    if (!(fds instanceof Map<?, ?> map)) {
      throw new IncusException.Failed(
          0, what + ": exec operation carries no websocket secrets", null);
    }
    return (Map<String, String>) map;
  }

  private int exitCode(Operation done) {
    int code = exitCodeOr(done, Integer.MIN_VALUE);
    if (code == Integer.MIN_VALUE) {
      throw new IncusException.Failed(0, what + ": the server reported no exit code", null);
    }
    return code;
  }

  private static int exitCodeOr(Operation done, int fallback) {
    return done.metadata().get("return") instanceof Number n ? n.intValue() : fallback;
  }
}
