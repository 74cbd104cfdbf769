package dev.agentcompute.incus;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.java_websocket.exceptions.WebsocketNotConnectedException;

/**
 * A command running in an instance with its standard streams attached ({@link Instances#openExec}),
 * for a caller that talks to it (a protocol over stdin and stdout) instead of waiting for it to
 * finish. Each write to {@link #stdin()} reaches the command as it is made, and closing it ends the
 * command's input. {@link #stdout()} reads what the command writes and ends when the command closes
 * its stdout (normally: it exited); a reader more than 1 MiB behind holds the command back rather
 * than losing output. Stderr is kept as a one-shot exec keeps it, its first 64 KiB with the rest
 * drained and dropped, so a chatty stderr never stalls the command.
 *
 * <p>{@link #close()} kills the command (signal 9) if it still runs and closes the websockets
 * within five seconds; the request's deadline does the same when it passes first. Thread-safe.
 */
public final class ExecStream implements AutoCloseable {

  /** How much unread stdout is buffered before the command is held back. */
  static final int STDOUT_BUFFER = 1 << 20;

  private final ExecSockets sockets;
  private final StreamPipe stdout = new StreamPipe(STDOUT_BUFFER);
  private final BoundedCapture stderr = new BoundedCapture(ExecResult.MAX_CAPTURE);
  private final Stdin stdin = new Stdin();
  private final AtomicBoolean closing = new AtomicBoolean();
  private final CountDownLatch closed = new CountDownLatch(1);

  private ExecStream(ExecSockets sockets) {
    this.sockets = sockets;
  }

  /** Starts {@code request} (its stdin, if any, is written first) and attaches to it. */
  static ExecStream open(Rest rest, Scope scope, String instance, ExecRequest request) {
    long deadline = System.nanoTime() + request.deadline().toNanos();
    ExecStream stream = new ExecStream(ExecSockets.start(rest, scope, instance, request));
    String what = stream.sockets.what();
    try {
      if (!stream.sockets.open(stream.stdout, stream.stderr, deadline)) {
        throw new IncusException.TimedOut(what + ": the exec websockets did not open in time");
      }
      if (request.stdin().length > 0) {
        stream.stdin.write(request.stdin());
      }
    } catch (InterruptedException e) {
      stream.close();
      Thread.currentThread().interrupt();
      throw new IncusException.Cancelled(what + ": cancelled by the caller");
    } catch (IOException e) {
      stream.close();
      throw new IncusException.Failed(0, what + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      stream.close();
      throw e;
    }
    Thread.ofVirtual()
        .name("incus-exec-deadline")
        .start(() -> stream.closeAt(deadline - System.nanoTime()));
    return stream;
  }

  /** Bytes written here go to the command's stdin; {@link OutputStream#close()} ends its input. */
  public OutputStream stdin() {
    return stdin;
  }

  /** What the command writes to stdout, until it closes it; closing this drops the rest. */
  public InputStream stdout() {
    return stdout;
  }

  /** The first 64 KiB the command wrote to stderr so far. */
  public byte[] stderr() {
    return stderr.bytes();
  }

  /**
   * Waits up to {@code limit} for the command to end and returns its exit code (137 after a kill);
   * {@link IncusException.TimedOut} when it still runs then, {@link IncusException.Cancelled} when
   * the caller is interrupted.
   */
  public int awaitExit(Duration limit) {
    return sockets.exitCode(sockets.awaitOperation(limit));
  }

  /** Kills the command if it still runs and closes its websockets; waits at most five seconds. */
  @Override
  public void close() {
    if (!closing.compareAndSet(false, true)) {
      return;
    }
    try {
      // First, so a websocket thread blocked on a full buffer is let go.
      stdout.close();
      sockets.signalKill();
      sockets.closeAll(System.nanoTime() + ExecSockets.TEARDOWN.toNanos());
    } finally {
      closed.countDown();
    }
  }

  /** The deadline's watch: closes the stream when {@code nanos} pass before {@link #close}. */
  private void closeAt(long nanos) {
    try {
      if (!closed.await(Math.max(nanos, 0), TimeUnit.NANOSECONDS)) {
        close();
      }
    } catch (InterruptedException e) {
      // Nobody interrupts this thread but a shutting-down JVM.
    }
  }

  /** The stdin websocket as a stream: one binary message per write, an empty text one at close. */
  private final class Stdin extends OutputStream {
    private volatile boolean ended;

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] data, int offset, int length) throws IOException {
      java.util.Objects.checkFromIndexSize(offset, length, data.length);
      if (ended || closing.get()) {
        throw new IOException(sockets.what() + ": stdin is closed");
      }
      if (length == 0) {
        return; // an empty message would mean nothing here; Incus reads only text "" as the end
      }
      try {
        sockets.stdin().send(Arrays.copyOfRange(data, offset, offset + length));
      } catch (WebsocketNotConnectedException e) {
        throw new IOException(sockets.what() + ": the command's stdin is gone", e);
      }
    }

    @Override
    public void close() {
      if (ended) {
        return;
      }
      ended = true;
      try {
        // The end of input the way Incus's own client says it (see ExecSession).
        sockets.stdin().send("");
      } catch (WebsocketNotConnectedException gone) {
        // The command's stdin is already gone.
      }
    }
  }
}
