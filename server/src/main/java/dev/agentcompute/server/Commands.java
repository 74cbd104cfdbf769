package dev.agentcompute.server;

import dev.agentcompute.server.cli.AdminCli;
import dev.agentcompute.server.cli.Cli;
import dev.agentcompute.server.cli.CliArgs;
import dev.agentcompute.server.config.CatalogueCheck;
import dev.agentcompute.server.config.LoadedConfig;
import dev.agentcompute.server.errors.ConfigException;
import dev.agentcompute.server.errors.ServerException;
import dev.agentcompute.server.errors.UsageException;
import dev.agentcompute.server.observe.Logging;
import dev.agentcompute.server.observe.Version;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Runs one command line to completion and returns the exit status: 0 success, 1 a failure (invalid
 * configuration, startup error), 2 a usage error.
 */
final class Commands {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int USAGE = 2;

  private Commands() {}

  static int run(
      List<String> args,
      Map<String, String> env,
      InputStream stdin,
      PrintStream stdout,
      PrintStream stderr) {
    if (!args.isEmpty() && args.getFirst().equals("admin")) {
      return AdminCli.run(args.subList(1, args.size()), env, stdout, stderr);
    }
    CliArgs cli;
    try {
      cli = Cli.parse(args, env);
    } catch (UsageException e) {
      stderr.println("agentcompute-server: " + e.getMessage());
      stderr.println("Run 'agentcompute-server --help' for usage.");
      return USAGE;
    }
    switch (cli.command()) {
      case VERSION -> {
        stdout.println(Version.current().line());
        return OK;
      }
      case HELP -> {
        stdout.print(Cli.USAGE);
        return OK;
      }
      case VALIDATE -> {
        return validate(cli, env, stdout, stderr);
      }
      case HTTP, STDIO -> {
        return serve(cli, env, stdin, stdout, stderr);
      }
      default -> throw new IllegalStateException("unhandled command " + cli.command());
    }
  }

  /**
   * {@code validate}: loads the configuration and its catalogue and runs every check startup makes
   * before contacting Incus (the same {@link Preflight}), and reports every problem as {@code FILE:
   * problem} on stderr (one per line, for CI logs).
   */
  static int validate(
      CliArgs cli, Map<String, String> env, PrintStream stdout, PrintStream stderr) {
    Path file;
    try {
      file = cli.requireConfig();
    } catch (UsageException e) {
      stderr.println("agentcompute-server: " + e.getMessage());
      return USAGE;
    }
    try {
      Preflight.Checked checked = new Preflight(env).load(file, CatalogueCheck.IMAGE_CATALOG);
      LoadedConfig loaded = checked.loaded();
      String catalogue = checked.catalogueDigest();
      stdout.println(
          file
              + ": valid (config "
              + loaded.shortDigest()
              + ", catalogue sha256:"
              + catalogue.substring(0, 12)
              + loaded.gitCommit().map(c -> ", commit " + c).orElse("")
              + ")");
      return OK;
    } catch (ConfigException e) {
      e.problems().forEach(p -> stderr.println(file + ": " + p));
      return FAILED;
    }
  }

  private static int serve(
      CliArgs cli,
      Map<String, String> env,
      InputStream stdin,
      PrintStream stdout,
      PrintStream stderr) {
    Logging.configure(cli.logLevel(), cli.logFormat(), stderr);
    // Startup failures are printed plainly (not as log records) so the exact text reaches the
    // operator or CI log unescaped; they never contain a token.
    try {
      return ServerRuntime.run(cli, env, stdin, stdout);
    } catch (UsageException e) {
      stderr.println("agentcompute-server: " + e.getMessage());
      return USAGE;
    } catch (ConfigException e) {
      e.problems().forEach(p -> stderr.println("agentcompute-server: " + p));
      return FAILED;
    } catch (ServerException e) {
      stderr.println("agentcompute-server: " + e.getMessage());
      return FAILED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return FAILED;
    }
  }
}
