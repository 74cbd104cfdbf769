package dev.agentcompute.codemode;

import dev.agentcompute.codemode.authz.ResourcePolicy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.execution.Outcomes;
import java.util.ArrayList;
import java.util.List;

/**
 * One resources/read (docs/reference/policy.md#resources): ask visible and read for every item
 * before reading any body, read, then ask both again and drop what was revoked meanwhile. A hidden
 * item vanishes silently; a visible item that may not be read leaves a warning (several items) or
 * makes the read {@code resource not readable} (one item). Nothing left and nothing denied: {@code
 * Resource not found}.
 */
final class TwoPhaseRead {

  private final ResourcePolicy policy;
  private final Context ctx;
  private final Subject subject;
  private final ResourceSource source;
  private final List<ResourceItem> items;
  private final List<String> warnings = new ArrayList<>();
  private boolean denied;

  TwoPhaseRead(
      ResourcePolicy policy,
      Context ctx,
      Subject subject,
      ResourceSource source,
      List<ResourceItem> items) {
    this.policy = policy;
    this.ctx = ctx;
    this.subject = subject;
    this.source = source;
    this.items = items;
  }

  ResourceRead run() throws CodeModeException {
    List<ResourceItem> allowed = new ArrayList<>();
    for (ResourceItem item : items) {
      if (passes(item)) {
        allowed.add(item);
      }
    }
    List<ResourceRead.Content> read = new ArrayList<>();
    for (ResourceItem item : allowed) {
      try {
        read.add(new ResourceRead.Content(item, source.read(ctx, subject, item)));
      } catch (Throwable t) {
        throw Outcomes.applicationFailure(t);
      }
    }
    List<ResourceRead.Content> delivered = new ArrayList<>();
    for (ResourceRead.Content c : read) {
      if (passes(c.item())) {
        delivered.add(c);
      }
    }
    if (delivered.isEmpty()) {
      throw CodeModeException.of(
          denied ? Failure.RESOURCE_NOT_READABLE : Failure.RESOURCE_NOT_FOUND);
    }
    return new ResourceRead(delivered, warnings);
  }

  /** Visible and readable now; a visible item denied a read is noted once. */
  private boolean passes(ResourceItem item) throws CodeModeException {
    if (!ResourceAccess.visible(policy, ctx, subject, item)) {
      return false;
    }
    if (!ResourceAccess.readable(policy, ctx, subject, item)) {
      String warning = item.uri() + ": read denied";
      if (!warnings.contains(warning)) {
        warnings.add(warning);
      }
      denied = true;
      return false;
    }
    return true;
  }
}
