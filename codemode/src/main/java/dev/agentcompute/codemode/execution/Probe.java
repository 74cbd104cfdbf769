package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.binding.GoQuote;
import dev.agentcompute.codemode.protocol.Frame;
import dev.agentcompute.codemode.protocol.FrameIO;
import dev.agentcompute.codemode.protocol.Frames;
import dev.agentcompute.codemode.protocol.JsonReader;
import dev.agentcompute.codemode.protocol.ProtocolException;
import dev.agentcompute.codemode.protocol.Values;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The build-time check that a worker starts and speaks the protocol: one probe, one 32-byte
 * probe_ack, end of output, exit 0, within a fixed five seconds.
 */
final class Probe {

  static final long TIMEOUT_SECONDS = 5;
  static final int STDERR_EXCERPT = 4096;
  static final String EOF_CAUSE = "stdout closed before probe_ack";
  static final String PREFIX = "the worker could not start: ";

  /**
   * What to change, in the terms of a Java launch: the worker is this JVM's java binary with this
   * JVM's class path (and module path) and {@link WorkerCommand#WORKER_MAIN} as its main class.
   */
  static final String ADVICE =
      "; workers run `java -cp <the host's java.class.path> "
          + WorkerCommand.WORKER_MAIN
          + "` (with the host's --module-path, if any), so start the host with java -jar, -cp or"
          + " --module-path over plain jars that hold codemode, starlark and their dependencies,"
          + " not with mvn exec:java or from a jar nested in another jar";

  private Probe() {}

  static void run(List<String> command) throws CodeModeException {
    Process p;
    try {
      p = WorkerCommand.start(command, true);
    } catch (IOException e) {
      throw CodeModeException.invalidRegistration(
          PREFIX + "could not run " + command.getFirst() + ": " + e.getMessage());
    }
    CompletableFuture<byte[]> stderr = new CompletableFuture<>();
    CompletableFuture<String> exchange = new CompletableFuture<>();
    Thread.ofPlatform()
        .daemon()
        .name("codemode-probe-stderr")
        .start(() -> stderr.complete(excerpt(p.getErrorStream())));
    Thread.ofPlatform().daemon().name("codemode-probe").start(() -> exchange.complete(talk(p)));
    String cause;
    try {
      cause = exchange.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      cause = "deadline exceeded after 5s";
    } catch (InterruptedException | ExecutionException e) {
      cause = "probe I/O failed: " + e.getMessage();
    }
    if (cause == null) {
      return;
    }
    if (cause.equals(EOF_CAUSE)) {
      // A non-zero exit explains an early end of output better than the end of output itself.
      try {
        if (p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) && p.exitValue() != 0) {
          cause = "child exited with status " + p.exitValue();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (p.isAlive()) {
      // Destroying a process closes its pipes, which would cut the stderr excerpt short: only a
      // child that is still running (a deadline) is killed here.
      p.destroyForcibly();
    }
    byte[] err;
    try {
      err = stderr.get(2, TimeUnit.SECONDS);
    } catch (Exception e) {
      err = new byte[0];
    }
    if (mainClassMissing(err)) {
      cause = "WorkerMain is not loadable from java.class.path=" + classPath(command);
    }
    throw CodeModeException.invalidRegistration(PREFIX + cause + ADVICE + stderrSuffix(err));
  }

  /** Whether the child's stderr is the launcher's refusal to find the worker main class. */
  static boolean mainClassMissing(byte[] err) {
    String text = new String(err, StandardCharsets.UTF_8);
    return text.contains("Could not find or load main class " + WorkerCommand.WORKER_MAIN)
        || text.contains("ClassNotFoundException: " + WorkerCommand.WORKER_MAIN);
  }

  /** The class path the worker was given: the argument after -cp, else empty. */
  private static String classPath(List<String> command) {
    int i = command.indexOf("-cp");
    return i >= 0 && i + 1 < command.size() ? command.get(i + 1) : "";
  }

  /** Returns null on success, else the cause. */
  private static String talk(Process p) {
    try {
      var out = p.getOutputStream();
      try {
        FrameIO.write(out, Frames.encode(new Frame.Probe(Frame.VERSION)));
      } catch (IOException e) {
        // A child that already exited closed its stdin; what it printed decides the cause.
      }
      InputStream in = p.getInputStream();
      byte[] payload;
      try {
        payload = FrameIO.read(in, Frames.PROBE_CAP);
        if (payload != null && Worker.isReady(payload)) {
          // A worker announces it is ready before anything else (ours); the ack follows.
          payload = FrameIO.read(in, Frames.PROBE_CAP);
        }
      } catch (ProtocolException e) {
        return "stdout contained non-protocol data before probe_ack";
      }
      if (payload == null) {
        return EOF_CAUSE;
      }
      Frame f;
      try {
        f = Frames.decode(payload, 1);
      } catch (ProtocolException e) {
        return isProbeAckType(payload)
            ? "received malformed probe_ack"
            : "stdout contained non-protocol data before probe_ack";
      }
      if (!(f instanceof Frame.ProbeAck ack)) {
        return "stdout contained non-protocol data before probe_ack";
      }
      if (ack.version() != Frame.VERSION) {
        return "protocol version mismatch: child reported " + ack.version() + ", parent requires 1";
      }
      try {
        out.close();
      } catch (IOException e) {
        // already closed by the child
      }
      if (in.read() >= 0) {
        return "received data after probe_ack";
      }
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        return "deadline exceeded after 5s";
      }
      return p.exitValue() == 0 ? null : "child exited with status " + p.exitValue();
    } catch (IOException | Values.InvalidValue e) {
      return "probe I/O failed: " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "probe I/O failed: interrupted";
    }
  }

  private static byte[] excerpt(InputStream err) {
    ByteArrayOutputStream kept = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    long total = 0;
    try {
      int n;
      while ((n = err.read(buf)) > 0) {
        int room = (int) Math.max(0, Math.min(n, STDERR_EXCERPT + 1 - kept.size()));
        kept.write(buf, 0, room);
        total += n;
      }
    } catch (IOException ignored) {
      // the process is gone; keep what was read
    }
    return kept.toByteArray();
  }

  static String stderrSuffix(byte[] err) {
    if (err.length == 0) {
      return "";
    }
    boolean truncated = err.length > STDERR_EXCERPT;
    String text =
        new String(err, 0, Math.min(err.length, STDERR_EXCERPT), StandardCharsets.UTF_8).strip();
    if (text.isEmpty()) {
      return "";
    }
    return truncated
        ? "; worker stderr (truncated to 4096 bytes): " + GoQuote.quote(text)
        : "; worker stderr: " + GoQuote.quote(text);
  }

  /**
   * Whether a frame that failed strict decoding still names itself {@code probe_ack}
   * (docs/reference/codemode.md#build-probe).
   */
  private static boolean isProbeAckType(byte[] payload) {
    try {
      return JsonReader.parse(payload, 4) instanceof java.util.Map<?, ?> m
          && "probe_ack".equals(m.get("type"));
    } catch (ProtocolException e) {
      return false;
    }
  }
}
