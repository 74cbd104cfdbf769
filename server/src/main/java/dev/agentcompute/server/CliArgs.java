package dev.agentcompute.server;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The resolved command line: each value comes from its flag, else its AGENTCOMPUTE_* variable,
 * else the default (spec §5.1).
 */
record CliArgs(
    Command command,
    Optional<Path> config,
    String addr,
    Optional<Path> authTokensFile,
    boolean insecure,
    LogLevel logLevel,
    LogFormat logFormat) {

  enum Command { HTTP, STDIO, VALIDATE, VERSION, HELP }

  enum LogFormat { TEXT, JSON }

  static final String DEFAULT_ADDR = "localhost:8080";

  /** The configuration path, or the spec's error when neither flag nor variable gave one. */
  Path requireConfig() {
    return config.orElseThrow(() -> new UsageException(
        "configuration is required: use --config or AGENTCOMPUTE_CONFIG"));
  }
}
