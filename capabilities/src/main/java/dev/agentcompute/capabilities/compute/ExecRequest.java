package dev.agentcompute.capabilities.compute;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A command to run in an instance.
 *
 * @param uid user to run as, -1 for the default (root)
 * @param timeout exec-specific deadline, {@code null} for none
 */
public record ExecRequest(List<String> argv, Map<String, String> env, String cwd, int uid, String stdin,
    Duration timeout) {
  public ExecRequest {
    argv = List.copyOf(argv);
    env = Map.copyOf(env);
  }
}
