package dev.agentcompute.codemode;

import dev.agentcompute.codemode.authz.ResourcePolicy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.catalog.Catalog;
import dev.agentcompute.codemode.execution.Outcomes;
import dev.agentcompute.codemode.tokens.TokenKind;
import dev.agentcompute.codemode.tokens.TokenSigner;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The MCP resources of a host (docs/reference/policy.md#resources), per caller: lists in URI order,
 * 50 to a page, with signed cursors; templates; reads with the two-phase visible/read check.
 * Immutable and safe for concurrent use; the transport calls it for each caller (the MCP Java SDK
 * lists resources globally, so {@link dev.agentcompute.codemode.mcp.ResourceRequests} answers the
 * JSON-RPC methods instead).
 */
public final class Resources {

  /** Items per resources/list page. */
  public static final int PAGE_SIZE = 50;

  private final List<ResourceSource> sources;
  private final ResourcePolicy policy;
  private final TokenSigner signer;
  private final InstantSource clock;
  private final String generation;

  private Resources(Builder b) {
    this.sources = List.copyOf(b.sources);
    this.policy = b.policy;
    this.signer = b.tokens.signer();
    this.clock = b.clock;
    StringBuilder all = new StringBuilder();
    for (ResourceSource s : sources) {
      ResourceDescription d = s.description();
      all.append(d.uri()).append('\0').append(d.uriTemplate()).append('\0').append(d.name());
      all.append('\0').append(d.title()).append('\0').append(d.description()).append('\0');
      all.append(d.mimeType()).append('\n');
    }
    this.generation = TokenSigner.digest(all.toString()).substring(0, 32);
  }

  public static Builder builder(ResourcePolicy policy) {
    return new Builder(Objects.requireNonNull(policy, "policy"));
  }

  /** Registrations of one {@link Resources}. */
  public static final class Builder {
    private final ResourcePolicy policy;
    private final List<ResourceSource> sources = new ArrayList<>();
    private Tokens tokens = Tokens.random();
    private InstantSource clock = InstantSource.system();

    private Builder(ResourcePolicy policy) {
      this.policy = policy;
    }

    /** A static resource whose body {@code reader} reads. */
    public Builder resource(ResourceDescription resource, ResourceSource.Reader reader) {
      return source(ResourceSource.of(resource, reader));
    }

    /** A template: {@code lister} names its listed items, {@code reader} reads any of them. */
    public Builder template(
        ResourceDescription template, ResourceSource.Lister lister, ResourceSource.Reader reader) {
      return source(ResourceSource.template(template, lister, reader));
    }

    public Builder source(ResourceSource source) {
      sources.add(Objects.requireNonNull(source, "source"));
      return this;
    }

    /** The token secret list cursors are signed with (share the server's). */
    public Builder tokens(Tokens tokens) {
      this.tokens = Objects.requireNonNull(tokens, "tokens");
      return this;
    }

    /** The clock cursors expire by. */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Validates the registrations: names, URIs and templates, each URI or template once. */
    public Resources build() throws CodeModeException {
      List<String> problems = new ArrayList<>();
      Set<String> seen = new HashSet<>();
      for (ResourceSource s : sources) {
        ResourceDescription d = s.description();
        String key = d.isTemplate() ? d.uriTemplate() : d.uri();
        if (d.name().isEmpty()) {
          problems.add("resource " + key + ": name must not be empty");
        }
        if (key.isEmpty()) {
          problems.add("resource " + d.name() + ": a uri or a uri template is required");
        }
        if (!seen.add(key)) {
          problems.add("resource " + key + " is registered more than once");
        }
        if (d.isTemplate()) {
          try {
            UriTemplate.parse(d.uriTemplate());
          } catch (IllegalArgumentException e) {
            problems.add("resource template " + key + ": " + e.getMessage());
          }
        }
      }
      if (!problems.isEmpty()) {
        throw CodeModeException.invalidRegistration(problems);
      }
      return new Resources(this);
    }
  }

  /**
   * One page of the items this caller may see, in URI order: the page after the one {@code cursor}
   * (a previous page's cursor) ended; null or empty for the first page.
   */
  public ResourcePage list(Context ctx, Subject subject, String cursor) throws CodeModeException {
    checkCaller(ctx, subject);
    String after = cursor == null || cursor.isEmpty() ? null : after(ctx, subject, cursor);
    TreeMap<String, ResourceItem> planned = new TreeMap<>(Catalog::compareBytes);
    for (ResourceSource s : sources) {
      if (!ResourceAccess.discover(policy, ctx, subject, s.description())) {
        continue;
      }
      List<ResourceItem> items;
      try {
        items = s.list(ctx, subject);
      } catch (Throwable t) {
        throw Outcomes.applicationFailure(t);
      }
      for (ResourceItem item : items) {
        planned.putIfAbsent(item.uri(), item);
      }
    }
    Map<String, ResourceItem> rest = after == null ? planned : planned.tailMap(after, false);
    List<ResourceItem> page = new ArrayList<>();
    for (ResourceItem item : rest.values()) {
      if (!ResourceAccess.visible(policy, ctx, subject, item)) {
        continue;
      }
      if (page.size() == PAGE_SIZE) {
        return new ResourcePage(page, next(ctx, subject, page.getLast().uri()));
      }
      page.add(item);
    }
    return new ResourcePage(page, null);
  }

  /** The templates this caller may discover (one page; no cursor). */
  public List<ResourceDescription> templates(Context ctx, Subject subject)
      throws CodeModeException {
    checkCaller(ctx, subject);
    List<ResourceDescription> out = new ArrayList<>();
    for (ResourceSource s : sources) {
      if (s.description().isTemplate()
          && ResourceAccess.discover(policy, ctx, subject, s.description())) {
        out.add(s.description());
      }
    }
    return out;
  }

  /**
   * Reads {@code uri}: {@code Resource not found} when it is unknown or hidden from this caller,
   * {@code resource not readable} when it is visible but reading it is denied; in a read of several
   * items a denied item is left out with a warning instead.
   */
  public ResourceRead read(Context ctx, Subject subject, String uri) throws CodeModeException {
    checkCaller(ctx, subject);
    for (ResourceSource s : sources) {
      List<ResourceItem> items;
      try {
        items = uri == null ? List.of() : s.resolve(ctx, subject, uri);
      } catch (Throwable t) {
        throw Outcomes.applicationFailure(t);
      }
      if (!items.isEmpty()) {
        if (!ResourceAccess.discover(policy, ctx, subject, s.description())) {
          break;
        }
        return new TwoPhaseRead(policy, ctx, subject, s, items).run();
      }
    }
    throw CodeModeException.of(Failure.RESOURCE_NOT_FOUND);
  }

  private String after(Context ctx, Subject subject, String cursor) throws CodeModeException {
    Map<String, Object> p =
        signer.verifyOr(
            Failure.INVALID_CURSOR,
            TokenKind.RESOURCES,
            cursor,
            () -> policy.scopeKey(ctx, subject),
            generation,
            clock.instant());
    if (!(p.get("after") instanceof String after)) {
      throw CodeModeException.of(Failure.INVALID_CURSOR);
    }
    return after;
  }

  private String next(Context ctx, Subject subject, String lastUri) throws CodeModeException {
    String scopeKey = scopeKeyOf(ctx, subject);
    return signer
        .sign(TokenKind.RESOURCES, scopeKey, generation, clock.instant(), Map.of("after", lastUri))
        .token();
  }

  private String scopeKeyOf(Context ctx, Subject subject) throws CodeModeException {
    try {
      return policy.scopeKey(ctx, subject);
    } catch (Throwable t) {
      throw CodeModeException.of(Failure.POLICY_FAILURE);
    }
  }

  private static void checkCaller(Context ctx, Subject subject) throws CodeModeException {
    if (ctx == null) {
      throw CodeModeException.of(Failure.INTERNAL);
    }
    if (subject == null || !subject.isAuthenticated()) {
      throw CodeModeException.of(Failure.UNAUTHENTICATED);
    }
  }
}
