package dev.agentcompute.codemode.authz.rego;

import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link Policy} whose EXECUTE answers come from a {@link RegoAuthorizer} and, optionally, whose
 * DISCOVER answers come from another decision over the same modules (asked with empty {@code
 * arguments}; a denial hides the capability). Without a discover decision, discovery is
 * unrestricted, as with {@link Policy#of}. The scope key is the subject id tagged with the policy
 * digest, so cursors issued under one policy do not survive a policy change.
 */
public final class RegoAccessPolicy implements Policy {
  private final RegoAuthorizer execute;
  private final RegoAuthorizer discover;

  private RegoAccessPolicy(RegoAuthorizer execute, RegoAuthorizer discover) {
    this.execute = Objects.requireNonNull(execute, "execute");
    this.discover = discover;
  }

  /** EXECUTE decided by {@code execute}; discovery unrestricted. */
  public static RegoAccessPolicy of(RegoAuthorizer execute) {
    return new RegoAccessPolicy(execute, null);
  }

  /** EXECUTE decided by {@code execute}, DISCOVER by {@code discover}. */
  public static RegoAccessPolicy of(RegoAuthorizer execute, RegoAuthorizer discover) {
    return new RegoAccessPolicy(execute, Objects.requireNonNull(discover, "discover"));
  }

  public RegoAuthorizer execute() {
    return execute;
  }

  public Optional<RegoAuthorizer> discover() {
    return Optional.ofNullable(discover);
  }

  /** The execute decision's policy digest (see {@link RegoAuthorizer#digest()}). */
  public String digest() {
    return execute.digest();
  }

  @Override
  public void authorize(Context ctx, AccessRequest request) throws Exception {
    if (request.kind() == AccessRequest.Kind.EXECUTE) {
      execute.authorize(ctx, request);
    } else if (discover != null) {
      discover.authorize(ctx, request);
    }
  }

  @Override
  public String scopeKey(Context ctx, Subject subject) {
    return subject.id()
        + "@"
        + execute.digest().substring("sha256:".length(), "sha256:".length() + 16);
  }
}
