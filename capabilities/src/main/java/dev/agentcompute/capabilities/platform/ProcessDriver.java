package dev.agentcompute.capabilities.platform;

import dev.agentcompute.capabilities.model.ProcessInfo;
import dev.agentcompute.capabilities.model.ProcessStart;
import dev.agentcompute.capabilities.model.Sandbox;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Background processes in a sandbox's instances (docs/capabilities.md#background-processes): the
 * process and its output live in the instance, under a supervisor, so any server reaches them by
 * id. A platform without it refuses the process capabilities with a text naming the platform.
 */
public interface ProcessDriver {
  /**
   * Starts {@code start}; empty when it started, else how many processes already run (the start was
   * refused at {@link ProcessStart#maxRunning}).
   */
  OptionalInt start(Sandbox sandbox, String instance, ProcessStart start);

  /** Every process the instance's supervisor knows, oldest first. */
  List<ProcessInfo> list(Sandbox sandbox, String instance);

  Optional<ProcessInfo> find(Sandbox sandbox, String instance, String id);

  /** Bytes of each stream from its offset, at most {@code maxBytes} each. */
  record Chunk(byte[] stdout, byte[] stderr) {}

  /** Empty when the process is unknown. */
  Optional<Chunk> read(
      Sandbox sandbox,
      String instance,
      String id,
      long stdoutOffset,
      long stderrOffset,
      int maxBytes);

  /** What a signal found. */
  enum Signalled {
    SENT,
    ALREADY_ENDED,
    NOT_FOUND
  }

  /** Sends {@code signal} (a name such as {@code TERM}) to the process's whole process group. */
  Signalled signal(Sandbox sandbox, String instance, String id, String signal);
}
