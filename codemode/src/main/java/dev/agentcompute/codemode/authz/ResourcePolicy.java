package dev.agentcompute.codemode.authz;

import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.ResourceDescription;
import dev.agentcompute.codemode.ResourceItem;

/**
 * Decides what a caller may see and read of the MCP resources (docs/reference/policy.md#resources).
 * Each method returns to allow and throws {@link AccessDenied} to deny; any other exception fails
 * the request closed. {@link #discover} is asked for registered resources and templates, {@link
 * #visible} for whether a planned item is in this caller's selection (a hidden item looks unknown),
 * {@link #read} for its body (a visible item that may not be read produces a warning). Reads ask
 * {@link #visible} and {@link #read} for every item before reading any body and again before
 * delivering, so an item revoked meanwhile is dropped. {@link #scopeKey} binds list cursors as in
 * {@link Policy}. All must be thread-safe.
 */
public interface ResourcePolicy {

  void discover(Context ctx, Subject subject, ResourceDescription description) throws Exception;

  void visible(Context ctx, Subject subject, ResourceItem item) throws Exception;

  void read(Context ctx, Subject subject, ResourceItem item) throws Exception;

  String scopeKey(Context ctx, Subject subject) throws Exception;

  /**
   * Every subject sees and reads every registered resource: the deliberate choice for a local stdio
   * host serving one person.
   */
  static ResourcePolicy allowRegistered() {
    return new ResourcePolicy() {
      @Override
      public void discover(Context ctx, Subject subject, ResourceDescription description) {}

      @Override
      public void visible(Context ctx, Subject subject, ResourceItem item) {}

      @Override
      public void read(Context ctx, Subject subject, ResourceItem item) {}

      @Override
      public String scopeKey(Context ctx, Subject subject) {
        return subject.id();
      }
    };
  }
}
