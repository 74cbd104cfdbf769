package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.Progress;
import dev.agentcompute.incus.ExecOutputListener;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Output as it comes (docs/capabilities.md#output-as-it-comes): a foreground exec that runs longer
 * than {@link #QUIET} reports its new complete output lines as progress stages, at most once per
 * {@link #EVERY}, which the client sees as MCP progress notifications when it asked for progress.
 * The result is not changed: it still carries the bounded output. Lines pending between two reports
 * are bounded ({@link #MAX_PENDING_BYTES} per stream, the oldest dropped and counted), and so is
 * each report ({@link #MAX_MESSAGE_CHARS}).
 */
final class ExecProgress implements ExecOutputListener, AutoCloseable {
  /** A command that ends sooner reports nothing: its result comes as fast. */
  static final Duration QUIET = Duration.ofSeconds(3);

  static final Duration EVERY = Duration.ofSeconds(1);
  static final int MAX_PENDING_BYTES = 64 * 1024;
  static final int MAX_MESSAGE_CHARS = 4096;

  private final Consumer<String> sink;
  private final Lines stdout = new Lines("");
  private final Lines stderr = new Lines("stderr: ");
  private Thread ticker;

  ExecProgress(Consumer<String> sink) {
    this.sink = sink;
  }

  /** A reporter for the current call with its ticker started; empty outside a call. */
  static Optional<ExecProgress> start() {
    return Progress.current()
        .map(
            sink -> {
              ExecProgress progress = new ExecProgress(sink);
              progress.ticker =
                  Thread.ofVirtual()
                      .name("exec-progress")
                      .start(
                          () -> {
                            try {
                              Thread.sleep(QUIET);
                              while (true) {
                                progress.flush();
                                Thread.sleep(EVERY);
                              }
                            } catch (InterruptedException e) {
                              // The exec ended.
                            }
                          });
              return progress;
            });
  }

  @Override
  public void output(boolean toStderr, byte[] data) {
    (toStderr ? stderr : stdout).add(data);
  }

  /** Reports the complete lines that came since the last report, if any. */
  void flush() {
    List<String> lines = new ArrayList<>();
    long dropped = stdout.take(lines) + stderr.take(lines);
    if (lines.isEmpty() && dropped == 0) {
      return;
    }
    StringBuilder message = new StringBuilder();
    int shown = 0;
    for (String line : lines) {
      if (message.length() + line.length() + 1 > MAX_MESSAGE_CHARS) {
        break;
      }
      message.append(message.isEmpty() ? "" : "\n").append(line);
      shown++;
    }
    long left = lines.size() - shown + dropped;
    if (left > 0) {
      message.append(message.isEmpty() ? "" : "\n").append("(").append(left).append(" more lines)");
    }
    sink.accept(message.toString());
  }

  @Override
  public void close() {
    if (ticker != null) {
      ticker.interrupt();
    }
  }

  /** One stream's bytes not reported yet, split into lines when taken. */
  private static final class Lines {
    private final String prefix;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private long droppedLines;

    Lines(String prefix) {
      this.prefix = prefix;
    }

    synchronized void add(byte[] data) {
      pending.writeBytes(data);
      if (pending.size() > MAX_PENDING_BYTES) {
        // Keep the newest: drop whole lines from the front (or everything but the tail).
        byte[] all = pending.toByteArray();
        int cut = all.length - MAX_PENDING_BYTES;
        int start = cut;
        while (start < all.length && all[start - 1] != '\n') {
          start++;
        }
        for (int i = 0; i < start; i++) {
          if (all[i] == '\n') {
            droppedLines++;
          }
        }
        pending.reset();
        pending.write(all, start, all.length - start);
      }
    }

    /** Adds the complete lines to {@code out}; answers how many were dropped since last time. */
    synchronized long take(List<String> out) {
      byte[] all = pending.toByteArray();
      int end = all.length;
      while (end > 0 && all[end - 1] != '\n') {
        end--;
      }
      if (end > 0) {
        String text = new String(all, 0, end - 1, StandardCharsets.UTF_8);
        for (String line : text.split("\n", -1)) {
          out.add(prefix + line);
        }
        pending.reset();
        pending.write(all, end, all.length - end);
      }
      long dropped = droppedLines;
      droppedLines = 0;
      return dropped;
    }
  }
}
