package dev.agentcompute.capabilities.model;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A command to run in an instance.
 *
 * @param uid user to run as, -1 for the default (root)
 * @param timeout exec-specific deadline, {@code null} for none
 */
public record CommandRequest(
    List<String> argv,
    Map<String, String> env,
    String cwd,
    int uid,
    String stdin,
    Duration timeout) {
  public CommandRequest {
    argv = List.copyOf(argv);
    env = Map.copyOf(env);
  }
}
