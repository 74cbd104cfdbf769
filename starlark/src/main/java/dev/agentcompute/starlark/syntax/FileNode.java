package dev.agentcompute.starlark.syntax;

import java.util.ArrayList;
import java.util.List;

/** A parsed file; the resolver fills in its module-level locals and globals. */
public final class FileNode {
  public final String path;
  public final List<Stmt> stmts;

  /** Locals of the top level (load bindings and comprehension variables outside functions). */
  public final List<Binding> moduleLocals = new ArrayList<>();

  public final List<Binding> globals = new ArrayList<>();

  /** Predeclared and universal names used by the file; their bindings index this list. */
  public final List<String> outsideNames = new ArrayList<>();

  public FileNode(String path, List<Stmt> stmts) {
    this.path = path;
    this.stmts = stmts;
  }
}
