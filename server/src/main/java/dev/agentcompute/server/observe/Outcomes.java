package dev.agentcompute.server.observe;

import dev.agentcompute.codemode.Failure;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;

/**
 * The one outcome vocabulary of executes and native calls, in metrics and the audit trail: {@code
 * ok}, or the CodeMode failure class in lower case ({@code capability_failure}, {@code
 * permission_denied}, {@code invalid_program}, {@code resource_limit}, {@code canceled}, {@code
 * unauthenticated}, {@code confirmation_required}, {@code internal}, …). Never a failure's detail,
 * which may echo agent input.
 */
public final class Outcomes {
  public static final String OK = "ok";

  /** Failures by their client text, longest first, so a prefix never shadows a longer text. */
  private static final Failure[] BY_TEXT =
      Arrays.stream(Failure.values())
          .sorted(Comparator.comparingInt((Failure f) -> f.text().length()).reversed())
          .toArray(Failure[]::new);

  private Outcomes() {}

  /** {@code ok} for no failure, else the failure's label. */
  public static String of(Failure failure) {
    return failure == null ? OK : failure.name().toLowerCase(Locale.ROOT);
  }

  /** The outcome of a tool result: {@code ok}, or the failure its text starts with. */
  public static String of(McpSchema.CallToolResult result) {
    if (!Boolean.TRUE.equals(result.isError())) {
      return OK;
    }
    String text =
        result.content().stream()
            .filter(c -> c instanceof McpSchema.TextContent)
            .map(c -> ((McpSchema.TextContent) c).text())
            .findFirst()
            .orElse("");
    for (Failure f : BY_TEXT) {
      if (text.regionMatches(true, 0, f.text(), 0, f.text().length())) {
        return of(f);
      }
    }
    return of(Failure.INTERNAL);
  }
}
