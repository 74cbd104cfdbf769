package dev.agentcompute.incus;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The start of an exec and its four websockets (control, stdin, stdout, stderr), shared by {@link
 * ExecSession} (a command run to completion) and {@link ExecStream} (a command kept attached):
 * {@code POST .../exec} non-interactive with wait-for-websocket (Incus starts the command once
 * stdin, stdout and stderr are connected), the sockets opened from the operation's secrets (the
 * control socket first), signal 9 on the control socket, and a teardown bounded in time.
 */
final class ExecSockets {

  static final Duration TEARDOWN = Duration.ofSeconds(5);

  /**
   * How long one websocket may take to open, whatever the exec's own deadline. A busy incusd (four
   * sandbox cycles at once beside other work, on two cores) was seen to need more than 10 s; a
   * socket that never opens still fails well before a long command's deadline.
   */
  static final Duration OPEN_BOUND = Duration.ofSeconds(30);

  private static final String KILL = "{\"command\":\"signal\",\"signal\":9}";

  private final Rest rest;
  private final Scope scope;
  private final String what;
  private final PendingOperation operation;
  private final List<ExecSocket> sockets = new ArrayList<>();
  private ExecSocket control;
  private ExecSocket stdin;
  private ExecSocket stdout;
  private ExecSocket stderr;

  private ExecSockets(Rest rest, Scope scope, PendingOperation operation, String what) {
    this.rest = rest;
    this.scope = scope;
    this.operation = operation;
    this.what = what;
  }

  /** Asks Incus to start {@code request} in {@code instance}; the command waits for the sockets. */
  static ExecSockets start(Rest rest, Scope scope, String instance, ExecRequest request) {
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
    return new ExecSockets(rest, scope, operation, "exec " + request.command() + " in " + instance);
  }

  String what() {
    return what;
  }

  PendingOperation operation() {
    return operation;
  }

  ExecSocket stdin() {
    return stdin;
  }

  ExecSocket stdout() {
    return stdout;
  }

  ExecSocket stderr() {
    return stderr;
  }

  /**
   * Connects the four sockets, the outputs feeding {@code out} and {@code err}, and waits for every
   * handshake (each at most {@link #OPEN_BOUND}); false when {@code deadline} (a {@link
   * System#nanoTime} value) passed first, {@link IncusException.Unavailable} when a socket could
   * not be opened.
   *
   * <p>The control socket comes first, on its own. Incus starts a non-interactive command as soon
   * as stdin, stdout and stderr are connected, without waiting for the control socket, and refuses
   * a socket once the operation ended: connected alongside the others, a late control socket made a
   * quick command that had run fine fail with "websocket did not open" (and left a slow one without
   * its kill switch until it came).
   */
  boolean open(ExecSocket.Sink out, ExecSocket.Sink err, long deadline)
      throws InterruptedException {
    Map<String, String> fds = fds();
    control = open(fds.get("control"), "control", null);
    if (!awaitOpen(control, deadline)) {
      return false;
    }
    stdin = open(fds.get("0"), "stdin", null);
    stdout = open(fds.get("1"), "stdout", out);
    stderr = open(fds.get("2"), "stderr", err);
    return awaitOpen(stdin, deadline) && awaitOpen(stdout, deadline) && awaitOpen(stderr, deadline);
  }

  private boolean awaitOpen(ExecSocket socket, long deadline) throws InterruptedException {
    long wait = Math.min(deadline - System.nanoTime(), OPEN_BOUND.toNanos());
    if (socket.awaitOpen(Math.max(wait, 0))) {
      return true;
    }
    if (System.nanoTime() - deadline >= 0) {
      return false;
    }
    throw new IncusException.Unavailable(
        0,
        what
            + ": the exec "
            + socket.role()
            + " websocket did not open ("
            + socket.closeDescription()
            + ")",
        socket.failure());
  }

  /** Signal 9 to the command; a control socket already gone means the command is gone too. */
  void signalKill() {
    if (control != null && control.isOpen()) {
      try {
        control.send(KILL);
      } catch (RuntimeException ignored) {
        // The control socket went away: the command is already gone.
      }
    }
  }

  /** Waits (until {@code until}, a nanoTime) for the data sockets to be closed by Incus. */
  void awaitDataClosed(long until) throws InterruptedException {
    for (ExecSocket socket : sockets) {
      if (socket != control) {
        socket.awaitClosed(Math.max(until - System.nanoTime(), 0));
      }
    }
  }

  /** Closes every socket, dropping the connection of any still open at {@code until}. */
  void closeAll(long until) {
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

  /** The finished operation's exit code, or {@code fallback} when it reported none. */
  static int exitCodeOr(Operation done, int fallback) {
    return done.metadata().get("return") instanceof Number n ? n.intValue() : fallback;
  }

  /** The exit code of a finished exec operation; a missing one is a failure. */
  int exitCode(Operation done) {
    if (done.statusCode() == 400) {
      throw Errors.fromOperationFailure(done.err(), what);
    }
    int code = exitCodeOr(done, Integer.MIN_VALUE);
    if (code == Integer.MIN_VALUE) {
      throw new IncusException.Failed(0, what + ": the server reported no exit code", null);
    }
    return code;
  }

  /** Waits for the operation to end within {@code timeout}. */
  Operation awaitOperation(Duration timeout) {
    return rest.waitOperation(scope, operation.id(), timeout, what);
  }

  private ExecSocket open(String secret, String role, ExecSocket.Sink sink) {
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
            role,
            sink);
    sockets.add(socket);
    socket.connect();
    return socket;
  }

  @SuppressWarnings("unchecked")
  private Map<String, String> fds() {
    Object fds = operation.started().metadata().get("fds");
    if (!(fds instanceof Map<?, ?> map)) {
      throw new IncusException.Failed(
          0, what + ": exec operation carries no websocket secrets", null);
    }
    return (Map<String, String>) map;
  }
}
