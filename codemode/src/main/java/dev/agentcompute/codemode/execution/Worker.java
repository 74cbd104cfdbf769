package dev.agentcompute.codemode.execution;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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

  Worker(Process process) {
    this.process = process;
    this.in = new BufferedInputStream(process.getInputStream(), 1 << 16);
    this.out = new BufferedOutputStream(process.getOutputStream(), 1 << 16);
  }

  boolean alive() {
    return process.isAlive();
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
