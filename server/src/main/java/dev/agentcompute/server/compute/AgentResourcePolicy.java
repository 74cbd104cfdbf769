package dev.agentcompute.server.compute;

import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.screenshots.ScreenshotStore;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.ResourceDescription;
import dev.agentcompute.codemode.ResourceItem;
import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.ResourcePolicy;
import dev.agentcompute.codemode.authz.Subject;
import java.util.Optional;

/**
 * Who sees which agentcompute resource. A capability document is visible when the CodeMode policy
 * lets the caller discover that capability (describe_api would show it). A sandbox or instance is
 * visible when the sandbox exists and, under {@code sandbox.visibility: owner}, was created by the
 * caller, and a screenshot when it has not expired and its sandbox is visible; otherwise every
 * authenticated subject sees every sandbox (the trusted-operator model). Everything visible may be
 * read when the capability call it stands for could be made ({@link ResourceGate}). The scope key
 * changes with the visibility setting, so a list cursor from before a reload that changed it is
 * refused.
 */
final class AgentResourcePolicy implements ResourcePolicy {
  private final ComputeGenerations compute;
  private final ResourceGate gate;

  AgentResourcePolicy(ComputeGenerations compute, ResourceGate gate) {
    this.compute = compute;
    this.gate = gate;
  }

  @Override
  public void discover(Context ctx, Subject subject, ResourceDescription description) {}

  @Override
  public void visible(Context ctx, Subject subject, ResourceItem item) throws Exception {
    ResourceDescription source = item.source();
    if (source.equals(AgentResources.CAPABILITIES)) {
      boolean discoverable =
          compute.onCurrent(
              g -> {
                try {
                  g.codeMode().describe(ctx, subject, item.variables().get("name"));
                  return true;
                } catch (CodeModeException e) {
                  return false;
                }
              });
      if (!discoverable) {
        throw new AccessDenied();
      }
    } else if (source.equals(AgentResources.SANDBOXES)
        || source.equals(AgentResources.INSTANCES)
        || source.equals(AgentResources.SCREENSHOTS)) {
      String name =
          source.equals(AgentResources.SCREENSHOTS)
              ? AgentResources.screenshot(compute, item.variables().get("id"))
                  .map(ScreenshotStore.Screenshot::sandbox)
                  .orElseThrow(AccessDenied::new)
              : item.variables().getOrDefault("sandbox", item.variables().get("name"));
      boolean visible =
          compute.onCurrent(
              g -> {
                try {
                  Optional<Sandbox> sandbox = g.runtime().compute().router().find(name);
                  return sandbox.isPresent()
                      && g.runtime().compute().sandboxes().visibleTo(subject.id(), sandbox.get());
                } catch (RuntimeException e) {
                  // Not a sandbox name, or the backend cannot say: nothing to show.
                  return false;
                }
              });
      if (!visible) {
        throw new AccessDenied();
      }
    }
  }

  /** A read that stands for a capability call may be made only when that call could be. */
  @Override
  public void read(Context ctx, Subject subject, ResourceItem item) throws Exception {
    Optional<ResourceCall> call = ResourceCall.of(item);
    if (call.isPresent()) {
      gate.check(ctx, subject, call.get());
    }
  }

  @Override
  public String scopeKey(Context ctx, Subject subject) {
    String visibility = compute.onCurrent(g -> g.config().sandbox().visibility());
    return subject.id() + "\u0000visibility=" + visibility;
  }
}
