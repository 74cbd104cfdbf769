package dev.agentcompute.server.compute;

import dev.agentcompute.capabilities.model.Names;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.authz.AccessRequest;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Puts the sandbox a call names into the policy's input ({@code input.sandbox = {"name", "owner"}}
 * for Rego), so that a policy can express teams: who may touch whose sandboxes. Asked before every
 * call (and resource read) whose arguments name a {@code sandbox}; the owner is the identity that
 * created it, as recorded on the sandbox, and {@code ""} when no sandbox of that name exists (a
 * rule on the owner then does not hold, and the call is refused before anything can tell a missing
 * sandbox from a foreign one). The lookup costs one Incus read per such call, so the server adds it
 * only in front of a configured policy.
 */
final class SandboxFacts implements Policy {
  private final Policy policy;
  private final Function<String, Optional<Sandbox>> sandboxes;

  private SandboxFacts(Policy policy, Function<String, Optional<Sandbox>> sandboxes) {
    this.policy = policy;
    this.sandboxes = sandboxes;
  }

  /** {@code policy}, asked with the named sandbox's facts. */
  static Policy around(Policy policy, Function<String, Optional<Sandbox>> sandboxes) {
    return new SandboxFacts(policy, sandboxes);
  }

  @Override
  public void authorize(Context ctx, AccessRequest request) throws Exception {
    policy.authorize(ctx, withSandbox(request));
  }

  AccessRequest withSandbox(AccessRequest request) {
    if (request.kind() != AccessRequest.Kind.EXECUTE
        || !(request.arguments().get("sandbox") instanceof String name)
        || name.isEmpty()) {
      return request;
    }
    String owner =
        Names.matchesGrammar(name) ? sandboxes.apply(name).map(Sandbox::subject).orElse("") : "";
    return request.withFacts(Map.of("sandbox", Map.of("name", name, "owner", owner)));
  }

  @Override
  public String scopeKey(Context ctx, Subject subject) throws Exception {
    return policy.scopeKey(ctx, subject);
  }
}
