package dev.agentcompute.capabilities.model;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A command to start in the background (docs/capabilities.md#background-processes): run by {@code
 * sh -c} under a supervisor in the instance.
 *
 * @param id the new process's id (the service chose it; unique in the instance)
 * @param uid the user to run as; empty for root
 * @param cwd the working directory; empty for the instance's default
 * @param timeout when the supervisor kills it ({@link ProcessEnd#TIMED_OUT}); empty for never
 * @param maxRunning {@code instance.background_processes}: the start is refused at this many
 * @param outputCapBytes {@code instance.background_output_mb} in bytes: each stream keeps this much
 */
public record ProcessStart(
    String id,
    String command,
    Map<String, String> env,
    OptionalInt uid,
    Optional<String> cwd,
    Optional<Duration> timeout,
    int maxRunning,
    long outputCapBytes) {
  public ProcessStart {
    env = Map.copyOf(env);
  }
}
