package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Position;
import java.util.List;
import java.util.Map;

/** A function defined by {@code def} or {@code lambda}: code plus defaults and captured cells. */
public final class StarlarkFunction implements Callable {
  final FunctionCode code;
  final Program program;
  final Module module;
  final Value[] defaults; // per named parameter; null where the parameter has no default
  final Cell[] freevars;
  final Value[] outside;
  private boolean frozen;

  StarlarkFunction(
      FunctionCode code,
      Program program,
      Module module,
      Value[] defaults,
      Cell[] freevars,
      Value[] outside) {
    this.code = code;
    this.program = program;
    this.module = module;
    this.defaults = defaults;
    this.freevars = freevars;
    this.outside = outside;
  }

  @Override
  public String name() {
    return code.name;
  }

  /** Number of named parameters, excluding *args and **kwargs (Go's NumParams minus those). */
  public int numParams() {
    return code.numParams;
  }

  public int numKwonlyParams() {
    return code.numParams - code.nonKwonly;
  }

  public boolean hasVarargs() {
    return code.hasVarargs;
  }

  public boolean hasKwargs() {
    return code.hasKwargs;
  }

  public Position position() {
    return code.fn.pos;
  }

  public Module module() {
    return module;
  }

  @Override
  public Value call(StarlarkThread thread, Value[] positional, List<Map.Entry<String, Value>> named)
      throws EvalException {
    return Eval.callFunction(thread, this, positional, named);
  }

  @Override
  public String type() {
    return "function";
  }

  @Override
  public boolean truth() {
    return true;
  }

  @Override
  public int hash() {
    return StarlarkString.of(code.name).hash();
  }

  @Override
  public void freeze() {
    if (!frozen) {
      frozen = true;
      for (Value d : defaults) {
        if (d != null) {
          d.freeze();
        }
      }
      for (Cell c : freevars) {
        c.freeze();
      }
    }
  }

  @Override
  public boolean isFrozen() {
    return frozen;
  }

  @Override
  public void repr(StringBuilder sb) {
    sb.append("<function ").append(code.name).append('>');
  }

  @Override
  public String toString() {
    return "<function " + code.name + ">";
  }
}
