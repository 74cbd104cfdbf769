package dev.agentcompute.capabilities.model;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One command to run in an instance, carried unchanged from the capability adapter to the platform
 * driver (docs/reference/exec-path.md), in the way of Incus's {@code api.InstanceExecPost}.
 * "Absent" is an empty Optional, never null or "".
 *
 * @param argv the command and its arguments
 * @param env variables set for it, besides the platform's own
 * @param cwd working directory; absent for the instance's default
 * @param user who runs it as the agent wrote it ({@code root}, a decimal UID, on macOS guests also
 *     {@code lume}; the service checks it, the driver maps it); absent for the platform's default
 *     user (root on Linux, the login user on macOS, the agent service on Windows)
 * @param stdin text sent then closed; absent sends nothing
 * @param timeout exec deadline, after which the command is killed and reported as timed out; absent
 *     for none (the caller's cancellation ends it)
 * @param progress whether the command's new output lines are reported as the call's progress while
 *     it runs long (docs/capabilities.md#output-as-it-comes): set only by instance.exec's
 *     foreground path, so the server's own execs (desktop, impairment, Windows guest helpers) never
 *     show their output to the agent as progress
 */
public record ExecRequest(
    List<String> argv,
    Map<String, String> env,
    Optional<String> cwd,
    Optional<String> user,
    Optional<String> stdin,
    Optional<Duration> timeout,
    boolean progress) {
  public ExecRequest {
    argv = List.copyOf(argv);
    env = Map.copyOf(env);
  }

  /** A request whose output is not reported as progress (the server's own execs). */
  public ExecRequest(
      List<String> argv,
      Map<String, String> env,
      Optional<String> cwd,
      Optional<String> user,
      Optional<String> stdin,
      Optional<Duration> timeout) {
    this(argv, env, cwd, user, stdin, timeout, false);
  }

  /**
   * {@code argv} as the platform's default user, in its default directory, without a deadline and
   * without progress.
   */
  public static ExecRequest of(List<String> argv) {
    return new ExecRequest(
        argv, Map.of(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
  }

  /** {@code sh -c line}: what instance.exec runs on Linux and macOS guests. */
  public static ExecRequest shell(String line) {
    return of(List.of("sh", "-c", line));
  }

  /** The shell line of a {@link #shell} request; empty for any other argv. */
  public Optional<String> shellLine() {
    return argv.size() == 3 && argv.get(0).equals("sh") && argv.get(1).equals("-c")
        ? Optional.of(argv.get(2))
        : Optional.empty();
  }

  public ExecRequest withArgv(List<String> value) {
    return new ExecRequest(value, env, cwd, user, stdin, timeout, progress);
  }

  public ExecRequest withCwd(Optional<String> value) {
    return new ExecRequest(argv, env, value, user, stdin, timeout, progress);
  }

  public ExecRequest withUser(Optional<String> value) {
    return new ExecRequest(argv, env, cwd, value, stdin, timeout, progress);
  }

  public ExecRequest withStdin(Optional<String> value) {
    return new ExecRequest(argv, env, cwd, user, value, timeout, progress);
  }

  public ExecRequest withTimeout(Optional<Duration> value) {
    return new ExecRequest(argv, env, cwd, user, stdin, value, progress);
  }

  /** Whether the command's output lines are reported as progress while it runs. */
  public ExecRequest withProgress(boolean value) {
    return new ExecRequest(argv, env, cwd, user, stdin, timeout, value);
  }
}
