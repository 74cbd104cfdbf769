package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.protocol.Frame;
import dev.agentcompute.codemode.protocol.FrameIO;
import dev.agentcompute.codemode.protocol.Frames;
import dev.agentcompute.codemode.protocol.ProtocolException;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One live worker process and its pipes. */
final class Worker {

  final Process process;
  final InputStream in;
  final OutputStream out;
  final long startedNanos = System.nanoTime();
  String subject;
  int executions;

  /** When it last became idle for its subject (reuse), by the pool's clock. */
  java.time.Instant idleSince;

  /** Its {@code ready} frame was read: it no longer counts as a starting JVM. */
  volatile boolean ready;

  /** It holds one of the pool's start permits (guarded by the pool's lock). */
  boolean holdsStartPermit;

  Worker(Process process) {
    this.process = process;
    this.in = new BufferedInputStream(process.getInputStream(), 1 << 16);
    this.out = new BufferedOutputStream(process.getOutputStream(), 1 << 16);
  }

  /**
   * Reads the worker's {@code ready} frame, killing the worker if none came within {@code wait}.
   *
   * @throws IOException when the worker ended, wrote something else, or took longer than {@code
   *     wait}; the worker is then dead or killed
   */
  void awaitReady(Duration wait) throws IOException {
    var late = new java.util.concurrent.atomic.AtomicBoolean();
    // A virtual thread rather than a delayed task: it is interrupted once the frame is read, so
    // nothing keeps this worker (and its pipes' buffers) reachable for the rest of the wait.
    Thread watchdog =
        Thread.ofVirtual()
            .name("codemode-worker-ready-watchdog")
            .start(
                () -> {
                  try {
                    Thread.sleep(wait);
                  } catch (InterruptedException e) {
                    return;
                  }
                  if (!ready) {
                    late.set(true);
                    process.destroyForcibly();
                  }
                });
    boolean gotReady;
    try {
      gotReady = readReady();
    } finally {
      watchdog.interrupt();
    }
    if (!gotReady) {
      throw new IOException(
          late.get()
              ? "the worker was not ready within " + wait.toMillis() + " ms and was killed"
              : "the worker ended before it was ready");
    }
  }

  /**
   * Reads the {@code ready} frame that precedes everything else the worker writes.
   *
   * @return false at the end of the worker's output (it ended before it was ready)
   * @throws IOException when it wrote anything else first
   */
  boolean readReady() throws IOException {
    byte[] payload;
    try {
      payload = FrameIO.read(in, Frames.PROBE_CAP);
    } catch (ProtocolException e) {
      throw new IOException("the worker broke the protocol before it was ready", e);
    }
    if (payload == null) {
      return false;
    }
    if (!isReady(payload)) {
      throw new IOException("the worker wrote something other than its ready frame first");
    }
    ready = true;
    return true;
  }

  /** Whether {@code payload} is a well-formed {@code ready} frame of this protocol version. */
  static boolean isReady(byte[] payload) {
    try {
      return Frames.decode(payload, 1) instanceof Frame.Ready r && r.version() == Frame.VERSION;
    } catch (ProtocolException e) {
      return false;
    }
  }

  boolean alive() {
    return process.isAlive();
  }

  /**
   * Kills the process and every process under it, without waiting. For a worker killed while it
   * starts: bubblewrap's inner process (PID 1 of the jail) dies with its parent only once it has
   * set its parent-death signal, so a jail killed right after that fork left it behind, waiting for
   * good. The tree is listed before the kill: once the parent is gone its children belong to init
   * and no longer show under it.
   */
  void killTree() {
    List<ProcessHandle> below = process.descendants().toList();
    process.destroyForcibly();
    below.forEach(ProcessHandle::destroyForcibly);
  }

  /** Kills the process and waits for it (reaps). */
  void kill() {
    process.destroyForcibly();
    closeQuietly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  void closeQuietly() {
    try {
      out.close();
    } catch (IOException ignored) {
      // the pipe is already broken; nothing to flush
    }
    try {
      in.close();
    } catch (IOException ignored) {
      // closing unblocks a concurrent reader, which is the point
    }
  }
}
