package dev.agentcompute.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.server.errors.UsageException;
import dev.agentcompute.server.observe.LogFormat;
import dev.agentcompute.server.observe.LogLevel;
import dev.agentcompute.server.observe.Version;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CliTest {
  private static CliArgs parse(Map<String, String> env, String... args) {
    return Cli.parse(List.of(args), env);
  }

  @Test
  void httpIsTheDefaultWithSpecDefaults() {
    CliArgs a = parse(Map.of());
    assertThat(a.command()).isEqualTo(CliArgs.Command.HTTP);
    assertThat(a.addr()).isEqualTo("localhost:8080");
    assertThat(a.authTokensFile()).isEmpty();
    assertThat(a.insecure()).isFalse();
    assertThat(a.logLevel()).isEqualTo(LogLevel.INFO);
    assertThat(a.logFormat()).isEqualTo(LogFormat.TEXT);
  }

  @Test
  void flagBeatsEnvironmentBeatsDefault() {
    Map<String, String> env =
        Map.of(
            "AGENTCOMPUTE_ADDR",
            "127.0.0.1:9000",
            "AGENTCOMPUTE_CONFIG",
            "/env.yaml",
            "AGENTCOMPUTE_LOG_LEVEL",
            "debug",
            "AGENTCOMPUTE_INSECURE",
            "true",
            "AGENTCOMPUTE_AUTH_TOKENS_FILE",
            "/env-tokens.json");
    CliArgs fromEnv = parse(env, "http");
    assertThat(fromEnv.addr()).isEqualTo("127.0.0.1:9000");
    assertThat(fromEnv.config()).contains(Path.of("/env.yaml"));
    assertThat(fromEnv.logLevel()).isEqualTo(LogLevel.DEBUG);
    assertThat(fromEnv.insecure()).isTrue();
    assertThat(fromEnv.authTokensFile()).contains(Path.of("/env-tokens.json"));

    CliArgs fromFlags =
        parse(
            env,
            "http",
            "--addr",
            "[::1]:1",
            "--config=/flag.toml",
            "--log-level",
            "error",
            "--insecure=false",
            "--auth-tokens-file",
            "/t.json",
            "--log-format",
            "json");
    assertThat(fromFlags.addr()).isEqualTo("[::1]:1");
    assertThat(fromFlags.config()).contains(Path.of("/flag.toml"));
    assertThat(fromFlags.logLevel()).isEqualTo(LogLevel.ERROR);
    assertThat(fromFlags.insecure()).isFalse();
    assertThat(fromFlags.authTokensFile()).contains(Path.of("/t.json"));
    assertThat(fromFlags.logFormat()).isEqualTo(LogFormat.JSON);
  }

  @Test
  void subcommandsAndGlobalFlagsInAnyOrder() {
    assertThat(parse(Map.of(), "--config", "a.yaml", "stdio").command())
        .isEqualTo(CliArgs.Command.STDIO);
    assertThat(parse(Map.of(), "validate", "--config", "a.yaml").config())
        .contains(Path.of("a.yaml"));
    assertThat(parse(Map.of(), "stdio", "--version").command()).isEqualTo(CliArgs.Command.VERSION);
  }

  @Test
  void configIsRequired() {
    assertThatThrownBy(() -> parse(Map.of(), "stdio").requireConfig())
        .isInstanceOf(UsageException.class)
        .hasMessage("configuration is required: use --config or AGENTCOMPUTE_CONFIG");
    assertThatThrownBy(() -> parse(Map.of("AGENTCOMPUTE_CONFIG", ""), "http").requireConfig())
        .hasMessage("configuration is required: use --config or AGENTCOMPUTE_CONFIG");
  }

  @Test
  void rejectsWhatItDoesNotKnow() {
    assertThatThrownBy(() -> parse(Map.of(), "--log-level", "loud"))
        .hasMessage("invalid log level \"loud\": use debug, info, warn, or error");
    assertThatThrownBy(() -> parse(Map.of("AGENTCOMPUTE_LOG_FORMAT", "xml")))
        .hasMessage("invalid log format \"xml\": use text or json");
    assertThatThrownBy(() -> parse(Map.of(), "--adr", "x")).hasMessage("unknown flag: --adr");
    assertThatThrownBy(() -> parse(Map.of(), "serve"))
        .hasMessage("unknown command \"serve\": use http, stdio, or validate");
    assertThatThrownBy(() -> parse(Map.of(), "stdio", "--addr", "x:1"))
        .hasMessage("unknown flag: --addr (only the http command has it)");
    assertThatThrownBy(() -> parse(Map.of(), "--config"))
        .hasMessage("flag needs an argument: --config");
    assertThatThrownBy(() -> parse(Map.of("AGENTCOMPUTE_INSECURE", "maybe")))
        .hasMessage("invalid value \"maybe\" for --insecure: use true or false");
  }

  @Test
  void versionLineHasTheSpecShape() {
    assertThat(new Version("dev", "none", "unknown").line())
        .isEqualTo("agentcompute dev (none) built unknown");
    assertThat(Version.current().line()).matches("agentcompute \\S+ \\(\\S+\\) built \\S+");
  }
}
