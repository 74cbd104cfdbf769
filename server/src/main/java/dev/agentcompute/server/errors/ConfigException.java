package dev.agentcompute.server.errors;

import java.util.List;

/** The runtime configuration file could not be read, decoded or validated. */
public final class ConfigException extends ServerException {
  private final List<String> problems;

  public ConfigException(List<String> problems) {
    super(String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  public ConfigException(String problem) {
    this(List.of(problem));
  }

  /** Every problem found, each one a complete message (validation collects all of them). */
  public List<String> problems() {
    return problems;
  }
}
