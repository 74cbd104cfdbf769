package dev.agentcompute.server.cli;

import dev.agentcompute.server.errors.UsageException;
import dev.agentcompute.server.observe.LogFormat;
import dev.agentcompute.server.observe.LogLevel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Parses {@code agentcompute-server [http|stdio|validate] [flags]}. Flags win over AGENTCOMPUTE_*
 * environment variables, which win over defaults. Both {@code --flag value} and {@code
 * --flag=value} are accepted; HTTP-only flags are rejected on other commands.
 */
public final class Cli {
  public static final String USAGE =
      """
      Usage: agentcompute-server [command] [flags]

      Commands:
        http        serve MCP over Streamable HTTP (default)
        stdio       serve MCP over standard input and output
        validate    check a configuration file and exit (0 valid, 1 invalid)
        admin       operator actions over a running server's admin API
                    ('agentcompute-server admin --help' lists them)

      Global flags:
        --config FILE         runtime configuration (.yaml, .yml, .toml)   env AGENTCOMPUTE_CONFIG
        --log-level LEVEL     debug, info, warn, error (default info)       env AGENTCOMPUTE_LOG_LEVEL
        --log-format FORMAT   text or json, always on stderr (default text) env AGENTCOMPUTE_LOG_FORMAT
        --version             print the version and exit
        -h, --help            print this help

      http flags:
        --addr HOST:PORT          listen address (default localhost:8080)    env AGENTCOMPUTE_ADDR
        --auth-tokens-file FILE   JSON object of identity names to bearer tokens;
                                  when set, every request needs a token      env AGENTCOMPUTE_AUTH_TOKENS_FILE
        --insecure                allow a non-loopback address without tokens (UNSAFE)
                                                                             env AGENTCOMPUTE_INSECURE
      """;

  private static final Set<String> GLOBAL = Set.of("config", "log-level", "log-format");
  private static final Set<String> HTTP_ONLY = Set.of("addr", "auth-tokens-file", "insecure");

  private Cli() {}

  public static CliArgs parse(List<String> args, Map<String, String> env) {
    CliArgs.Command command = null;
    Map<String, String> flags = new HashMap<>();
    List<String> positional = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals("--version")) {
        return helpOrVersion(CliArgs.Command.VERSION);
      }
      if (arg.equals("-h") || arg.equals("--help") || arg.equals("help")) {
        return helpOrVersion(CliArgs.Command.HELP);
      }
      if (arg.equals("--")) {
        positional.addAll(args.subList(i + 1, args.size()));
        break;
      }
      if (!arg.startsWith("--")) {
        positional.add(arg);
        continue;
      }
      String name = arg.substring(2);
      String value = null;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      if (!GLOBAL.contains(name) && !HTTP_ONLY.contains(name)) {
        throw new UsageException("unknown flag: --" + name);
      }
      if (value == null) {
        if (name.equals("insecure")) {
          value = "true";
        } else if (i + 1 < args.size()) {
          value = args.get(++i);
        } else {
          throw new UsageException("flag needs an argument: --" + name);
        }
      }
      flags.put(name, value);
    }
    for (String word : positional) {
      if (command != null) {
        throw new UsageException("unexpected argument \"" + word + "\"");
      }
      command =
          switch (word) {
            case "http" -> CliArgs.Command.HTTP;
            case "stdio" -> CliArgs.Command.STDIO;
            case "validate" -> CliArgs.Command.VALIDATE;
            default ->
                throw new UsageException(
                    "unknown command \"" + word + "\": use http, stdio, or validate");
          };
    }
    if (command == null) {
      command = CliArgs.Command.HTTP;
    }
    if (command != CliArgs.Command.HTTP) {
      for (String name : HTTP_ONLY) {
        if (flags.containsKey(name)) {
          throw new UsageException("unknown flag: --" + name + " (only the http command has it)");
        }
      }
    }
    Optional<Path> config = value("config", flags, env).filter(s -> !s.isEmpty()).map(Path::of);
    LogLevel level = LogLevel.parse(value("log-level", flags, env).orElse("info"));
    LogFormat format = logFormat(value("log-format", flags, env).orElse("text"));
    String addr = CliArgs.DEFAULT_ADDR;
    Optional<Path> tokens = Optional.empty();
    boolean insecure = false;
    if (command == CliArgs.Command.HTTP) {
      addr = value("addr", flags, env).orElse(CliArgs.DEFAULT_ADDR);
      tokens = value("auth-tokens-file", flags, env).filter(s -> !s.isEmpty()).map(Path::of);
      insecure = bool("insecure", value("insecure", flags, env).orElse("false"));
    }
    return new CliArgs(command, config, addr, tokens, insecure, level, format);
  }

  private static CliArgs helpOrVersion(CliArgs.Command command) {
    return new CliArgs(
        command,
        Optional.empty(),
        CliArgs.DEFAULT_ADDR,
        Optional.empty(),
        false,
        LogLevel.INFO,
        LogFormat.TEXT);
  }

  /** Flag, else AGENTCOMPUTE_ + upper-case name with '-' turned into '_'. */
  private static Optional<String> value(
      String flag, Map<String, String> flags, Map<String, String> env) {
    if (flags.containsKey(flag)) {
      return Optional.of(flags.get(flag));
    }
    return Optional.ofNullable(env.get(envName(flag)));
  }

  static String envName(String flag) {
    return "AGENTCOMPUTE_" + flag.toUpperCase(Locale.ROOT).replace('-', '_').replace('.', '_');
  }

  private static LogFormat logFormat(String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "text" -> LogFormat.TEXT;
      case "json" -> LogFormat.JSON;
      default -> throw new UsageException("invalid log format \"" + value + "\": use text or json");
    };
  }

  /** Go's strconv.ParseBool spellings, as Viper accepted them. */
  private static boolean bool(String flag, String value) {
    return switch (value) {
      case "1", "t", "T", "true", "TRUE", "True" -> true;
      case "0", "f", "F", "false", "FALSE", "False" -> false;
      default ->
          throw new UsageException(
              "invalid value \"" + value + "\" for --" + flag + ": use true or false");
    };
  }
}
