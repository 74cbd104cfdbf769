package dev.agentcompute.starlark.syntax;

/** A syntax tree node. */
public sealed interface Node permits Expr, Stmt {
  /** The position where the node's source text starts. */
  Position start();
}
