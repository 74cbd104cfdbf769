package dev.agentcompute.server.config;

import dev.agentcompute.codemode.Tokens;
import dev.agentcompute.codemode.WorkerIsolation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Validates the CodeMode settings (ours): {@code tokens_secret_file}, {@code
 * codemode.worker_reuse}, {@code codemode.agent_guidance}, {@code codemode.worker_isolation} and
 * {@code codemode.max_slots_per_identity}. The secret itself is read by {@link #readSecret} at
 * startup, never kept in the configuration.
 */
public final class CodemodeSettings {
  static final int SECRET_BYTES = 32;
  static final long MAX_REUSE_EXECUTIONS = 10_000;
  static final long MAX_REUSE_IDLE_SECONDS = 3_600;

  /**
   * Execution slots of the server (CodeMode's MaxConcurrentExecutions default, not configurable).
   */
  static final long EXECUTION_SLOTS = 8;

  /** Half the slots: two identities at their cap still leave room for nobody else's starvation. */
  static final long DEFAULT_SLOTS_PER_IDENTITY = 4;

  private CodemodeSettings() {}

  static ServerConfig.Codemode load(
      RuntimeConfig raw, Function<String, Path> resolve, List<String> problems) {
    Optional<Path> secret = Optional.empty();
    if (raw.tokensSecretFile() != null) {
      if (raw.tokensSecretFile().isBlank()) {
        problems.add("tokens_secret_file must not be empty");
      } else {
        Path file = resolve.apply(raw.tokensSecretFile());
        try {
          readSecret(file);
          secret = Optional.of(file);
        } catch (IllegalArgumentException e) {
          problems.add(e.getMessage());
        }
      }
    }
    Optional<ServerConfig.WorkerReuse> reuse = Optional.empty();
    RuntimeConfig.WorkerReuse r = raw.codemode() == null ? null : raw.codemode().workerReuse();
    if (r != null) {
      long executions = r.maxExecutions() == null ? 0 : r.maxExecutions();
      long idle = r.maxIdleSeconds() == null ? 30 : r.maxIdleSeconds();
      boolean ok = true;
      if (executions < 2 || executions > MAX_REUSE_EXECUTIONS) {
        problems.add(
            "codemode.worker_reuse.max_executions must be between 2 and "
                + MAX_REUSE_EXECUTIONS
                + ", got "
                + executions);
        ok = false;
      }
      if (idle < 1 || idle > MAX_REUSE_IDLE_SECONDS) {
        problems.add(
            "codemode.worker_reuse.max_idle_seconds must be between 1 and "
                + MAX_REUSE_IDLE_SECONDS
                + ", got "
                + idle);
        ok = false;
      }
      if (ok) {
        reuse = Optional.of(new ServerConfig.WorkerReuse(executions, Duration.ofSeconds(idle)));
      }
    }
    boolean guidance =
        raw.codemode() == null
            || raw.codemode().agentGuidance() == null
            || raw.codemode().agentGuidance();
    return new ServerConfig.Codemode(
        secret, reuse, guidance, isolation(raw, problems), slotsPerIdentity(raw, problems));
  }

  /**
   * {@code codemode.max_slots_per_identity}: how many of the execution slots one identity's
   * executions hold at once; more wait in turn, so no identity can starve another.
   */
  private static long slotsPerIdentity(RuntimeConfig raw, List<String> problems) {
    Long value = raw.codemode() == null ? null : raw.codemode().maxSlotsPerIdentity();
    if (value == null) {
      return DEFAULT_SLOTS_PER_IDENTITY;
    }
    if (value < 1 || value > EXECUTION_SLOTS) {
      problems.add(
          "codemode.max_slots_per_identity must be between 1 and "
              + EXECUTION_SLOTS
              + " (the server's execution slots), got "
              + value);
      return DEFAULT_SLOTS_PER_IDENTITY;
    }
    return value;
  }

  /** {@code codemode.worker_isolation}: auto (the default), bubblewrap or none. */
  private static WorkerIsolation isolation(RuntimeConfig raw, List<String> problems) {
    String value = raw.codemode() == null ? null : raw.codemode().workerIsolation();
    if (value == null || value.isEmpty()) {
      return WorkerIsolation.AUTO;
    }
    return switch (value) {
      case "auto" -> WorkerIsolation.AUTO;
      case "bubblewrap" -> WorkerIsolation.BUBBLEWRAP;
      case "none" -> WorkerIsolation.NONE;
      default -> {
        problems.add(
            "codemode.worker_isolation must be auto, bubblewrap or none, got \"" + value + "\"");
        yield WorkerIsolation.AUTO;
      }
    };
  }

  /**
   * The token signer: from {@code tokens_secret_file} when configured (tokens then survive a
   * restart and are valid on every server sharing the secret), else a random secret.
   */
  public static Tokens tokens(ServerConfig.Codemode codemode) {
    return codemode
        .tokensSecretFile()
        .map(file -> Tokens.withSecret(readSecret(file)))
        .orElseGet(Tokens::random);
  }

  /**
   * The 32-byte token secret in {@code file}: 32 raw bytes (as {@code head -c 32 /dev/urandom}
   * writes them) or 64 hex digits, a trailing newline allowed.
   */
  static byte[] readSecret(Path file) {
    byte[] content;
    try {
      content = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "tokens_secret_file " + file + " cannot be read: " + e.getMessage());
    }
    if (content.length == SECRET_BYTES) {
      return content;
    }
    String text = new String(content, java.nio.charset.StandardCharsets.US_ASCII).strip();
    if (text.length() == 2 * SECRET_BYTES
        && text.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
      return HexFormat.of().parseHex(text);
    }
    throw new IllegalArgumentException(
        "tokens_secret_file "
            + file
            + " must hold exactly 32 bytes or 64 hex digits, it holds "
            + content.length
            + " bytes");
  }
}
