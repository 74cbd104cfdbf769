package dev.agentcompute.starlark.syntax;

/** An identifier; {@link #binding} is set by the resolver. */
public final class Ident extends Expr {
  public final Position pos;
  public final String name;
  public Binding binding;

  public Ident(Position pos, String name) {
    super(K_IDENT);
    this.pos = pos;
    this.name = name;
  }

  @Override
  public Position start() {
    return pos;
  }
}
