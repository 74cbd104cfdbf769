package dev.agentcompute.capabilities.model;

import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.OptionalInt;

/**
 * A command kept running with its stdin and stdout attached, for a protocol spoken over them (the
 * Windows Driver proxy's MCP, docs/reference/capabilities.md#desktops). Its stdout ends when the
 * command exits; {@link #close} ends the command.
 */
public interface CommandStream extends AutoCloseable {
  OutputStream stdin();

  InputStream stdout();

  /** What the command wrote to stderr so far (its first 64 KiB), for diagnostics. */
  String stderr();

  /** The exit code once the command ended within {@code wait}; empty while it still runs. */
  OptionalInt exitCode(Duration wait);

  /** Ends the command if it still runs; never throws. */
  @Override
  void close();
}
