package dev.agentcompute.starlark.syntax;

/**
 * The resolver's answer for a name: its scope and slot index (local slot, free-variable index or
 * global index). Shared by every identifier that refers to the same variable.
 */
public final class Binding {
  public Scope scope;
  public int index;

  /** The first binding occurrence, for "declared at" messages; null for predeclared/universal. */
  public final Ident first;

  public Binding(Scope scope, int index, Ident first) {
    this.scope = scope;
    this.index = index;
    this.first = first;
  }
}
