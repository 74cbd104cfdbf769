package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Position;

/**
 * The activation record of a Starlark function or module top level. Holds the local slots and the
 * position being executed, which backtraces report.
 */
final class EvalFrame implements StarlarkThread.Frame {
  final StarlarkThread thread;
  final Callable callable; // the StarlarkFunction, or null for a module's top level
  final String name;
  final Module module;
  final Value[] locals;
  final Cell[] freevars;
  final Value[] outside; // predeclared and universal values, by resolver index

  /** The call or statement position currently executing; set before each call. */
  Position pos;

  /** The value of a return statement. */
  Value result;

  /** The program whose code runs in this frame (for its dialect). */
  Program programRef;

  EvalFrame(
      StarlarkThread thread,
      Callable callable,
      String name,
      Module module,
      Value[] locals,
      Cell[] freevars,
      Value[] outside,
      Position pos) {
    this.thread = thread;
    this.callable = callable;
    this.name = name;
    this.module = module;
    this.locals = locals;
    this.freevars = freevars;
    this.outside = outside;
    this.pos = pos;
  }

  @Override
  public Callable callable() {
    return callable;
  }

  Program program() {
    return programRef;
  }
}
