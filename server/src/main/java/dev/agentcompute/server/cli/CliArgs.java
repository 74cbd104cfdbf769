package dev.agentcompute.server.cli;

import dev.agentcompute.server.errors.UsageException;
import dev.agentcompute.server.observe.LogFormat;
import dev.agentcompute.server.observe.LogLevel;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The resolved command line: each value comes from its flag, else its AGENTCOMPUTE_* variable, else
 * the default (docs/configuration.md#command-line).
 */
public record CliArgs(
    Command command,
    Optional<Path> config,
    String addr,
    Optional<Path> authTokensFile,
    boolean insecure,
    LogLevel logLevel,
    LogFormat logFormat) {

  public enum Command {
    HTTP,
    STDIO,
    VALIDATE,
    VERSION,
    HELP
  }

  static final String DEFAULT_ADDR = "localhost:8080";

  /** The configuration path, or the spec's error when neither flag nor variable gave one. */
  public Path requireConfig() {
    return config.orElseThrow(
        () -> new UsageException("configuration is required: use --config or AGENTCOMPUTE_CONFIG"));
  }
}
