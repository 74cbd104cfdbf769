package dev.agentcompute.server.admin;

import dev.agentcompute.codemode.ExecuteIds;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.mcp.CodeModeMcp;
import dev.agentcompute.server.mcp.TransportContextKeys;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The executes running now, each under its execute id, with who runs it, on which session, since
 * when and the native call in progress; an operator can cancel one, which ends its context and so
 * kills its worker. The {@code execute} tool is wrapped to enter and leave this registry.
 */
public final class RunningExecutes {
  private final Clock clock;
  private final Map<String, Running> running = new ConcurrentHashMap<>();

  public RunningExecutes(Clock clock) {
    this.clock = clock;
  }

  private record Running(
      String id, String subject, String session, Instant startedAt, Optional<ExecuteWatch> watch) {}

  /**
   * A running execute as the admin API shows it; {@code cancellable} is false where the transport
   * gave no way to stop it (stdio).
   */
  public record View(
      String id,
      String subject,
      String session,
      Instant startedAt,
      Duration age,
      String currentCall,
      long callsCompleted,
      boolean cancellable) {}

  /** Oldest first. */
  public List<View> list() {
    Instant now = clock.instant();
    return running.values().stream()
        .sorted(Comparator.comparing(Running::startedAt).thenComparing(Running::id))
        .map(
            r ->
                new View(
                    r.id(),
                    r.subject(),
                    r.session(),
                    r.startedAt(),
                    Duration.between(r.startedAt(), now),
                    r.watch().map(ExecuteWatch::currentCall).orElse(""),
                    r.watch().map(ExecuteWatch::callsCompleted).orElse(0L),
                    r.watch().isPresent()))
        .toList();
  }

  /** What {@link #cancel} found. */
  public enum Cancel {
    CANCELED,
    NOT_RUNNING,
    NOT_CANCELLABLE
  }

  public Cancel cancel(String id) {
    Running r = running.get(id);
    if (r == null) {
      return Cancel.NOT_RUNNING;
    }
    if (r.watch().isEmpty()) {
      return Cancel.NOT_CANCELLABLE;
    }
    r.watch().get().cancel();
    return Cancel.CANCELED;
  }

  /** Cancels every execute of these subjects (their token was revoked); returns how many. */
  public int cancelSubjects(Set<String> subjects) {
    int n = 0;
    for (Running r : running.values()) {
      if (subjects.contains(r.subject()) && r.watch().isPresent() && r.watch().get().cancel()) {
        n++;
      }
    }
    return n;
  }

  public List<McpServerFeatures.SyncToolSpecification> wrap(
      List<McpServerFeatures.SyncToolSpecification> tools) {
    return tools.stream().map(t -> t.tool().name().equals("execute") ? tracked(t) : t).toList();
  }

  private McpServerFeatures.SyncToolSpecification tracked(
      McpServerFeatures.SyncToolSpecification tool) {
    return McpServerFeatures.SyncToolSpecification.builder()
        .tool(tool.tool())
        .callHandler(
            (exchange, request) -> {
              McpTransportContext context = exchange == null ? null : exchange.transportContext();
              Running r =
                  new Running(
                      // the id the request was given (Exchanges): the one the result's _meta and
                      // the audit records carry, so an operator names an execute by one id
                      context != null && context.get(ExecuteIds.META_KEY) instanceof String id
                          ? id
                          : ExecuteIds.next(),
                      subject(context),
                      string(context, TransportContextKeys.SESSION_ID),
                      clock.instant(),
                      context != null
                              && context.get(CodeModeMcp.OBSERVER_CONTEXT_KEY)
                                  instanceof ExecuteWatch w
                          ? Optional.of(w)
                          : Optional.empty());
              running.put(r.id(), r);
              try {
                McpSchema.CallToolResult result = tool.callHandler().apply(exchange, request);
                return result;
              } finally {
                running.remove(r.id());
              }
            })
        .build();
  }

  private static String subject(McpTransportContext context) {
    String s = string(context, TransportContextKeys.SUBJECT);
    if (!s.isEmpty() || context == null) {
      return s;
    }
    return context.get(Subject.TRANSPORT_CONTEXT_KEY) instanceof Subject subject
        ? subject.id()
        : "";
  }

  private static String string(McpTransportContext context, String key) {
    return context != null && context.get(key) instanceof String s ? s : "";
  }
}
