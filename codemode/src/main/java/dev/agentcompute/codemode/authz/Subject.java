package dev.agentcompute.codemode.authz;

import dev.agentcompute.codemode.Context;
import java.util.Objects;
import java.util.Optional;

/**
 * A stable, non-secret authenticated identity. An empty id means unauthenticated. Credentials never
 * belong here: authentication middleware validates them and stores only the subject with {@link
 * #in(Context)}.
 */
public record Subject(String id) {

  /** The context key under which {@link #in(Context)} stores the subject. */
  private static final Context.Key<Subject> KEY = new Context.Key<>("codemode.subject");

  /**
   * The key of {@code io.modelcontextprotocol.common.McpTransportContext} entries holding a {@link
   * Subject}: an HTTP transport's context extractor puts the authenticated subject there and the
   * MCP adapter copies it into the request {@link Context}.
   */
  public static final String TRANSPORT_CONTEXT_KEY = "dev.agentcompute.codemode.subject";

  public Subject {
    Objects.requireNonNull(id, "id");
  }

  public boolean isAuthenticated() {
    return !id.isEmpty();
  }

  /** A child of {@code ctx} carrying this subject. Does not authenticate anything. */
  public Context in(Context ctx) {
    return ctx.withValue(KEY, this);
  }

  /** The subject stored with {@link #in(Context)}, if any. */
  public static Optional<Subject> from(Context ctx) {
    return ctx.value(KEY);
  }
}
