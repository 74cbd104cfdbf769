package dev.agentcompute.incus;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A command to run in an instance. {@code stdin} is sent then closed (empty = immediate EOF);
 * {@code deadline} bounds the whole call: when it passes the command is killed (signal 9) and the
 * result says {@code timedOut}. {@code user} is a uid (null = root); {@code cwd} may be null. For
 * {@link Instances#openExec} stdin is only written first (the stream stays open) and the deadline
 * bounds the stream's life.
 */
public record ExecRequest(
    List<String> command,
    Map<String, String> environment,
    String cwd,
    Integer user,
    byte[] stdin,
    Duration deadline) {

  public ExecRequest {
    if (command == null || command.isEmpty()) {
      throw new IllegalArgumentException("exec needs a command");
    }
    command = List.copyOf(command);
    environment = environment == null ? Map.of() : Map.copyOf(environment);
    stdin = stdin == null ? new byte[0] : stdin;
    if (deadline == null || deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("exec needs a positive deadline");
    }
  }

  public static ExecRequest of(Duration deadline, String... command) {
    return new ExecRequest(List.of(command), Map.of(), null, null, new byte[0], deadline);
  }

  public ExecRequest withStdin(byte[] input) {
    return new ExecRequest(command, environment, cwd, user, input, deadline);
  }

  public ExecRequest withEnvironment(Map<String, String> env) {
    return new ExecRequest(command, env, cwd, user, stdin, deadline);
  }

  public ExecRequest withCwd(String dir) {
    return new ExecRequest(command, environment, dir, user, stdin, deadline);
  }

  public ExecRequest withUser(int uid) {
    return new ExecRequest(command, environment, cwd, uid, stdin, deadline);
  }
}
