package dev.agentcompute.rego;

import dev.agentcompute.rego.compile.CompileFailure;
import dev.agentcompute.rego.compile.Problem;
import dev.agentcompute.rego.eval.EvalFailure;
import java.util.ArrayList;
import java.util.List;

/** Turns the compiler's and evaluator's internal failures into the public exceptions. */
final class Failures {
  private Failures() {}

  static RegoCompileException of(CompileFailure f) {
    List<RegoProblem> out = new ArrayList<>();
    for (Problem p : f.problems()) {
      out.add(new RegoProblem(p.code(), p.pos(), p.message()));
    }
    return new RegoCompileException(out);
  }

  static RegoEvalException of(EvalFailure f) {
    RegoEvalException.Kind kind =
        switch (f.code()) {
          case EvalFailure.CONFLICT -> RegoEvalException.Kind.CONFLICT;
          case EvalFailure.TYPE -> RegoEvalException.Kind.TYPE;
          case EvalFailure.BUILTIN -> RegoEvalException.Kind.BUILTIN;
          case EvalFailure.BUDGET -> RegoEvalException.Kind.BUDGET;
          case EvalFailure.DEPTH -> RegoEvalException.Kind.DEPTH;
          case EvalFailure.CANCEL -> RegoEvalException.Kind.CANCELED;
          default -> RegoEvalException.Kind.INTERNAL;
        };
    return new RegoEvalException(kind, f.code(), f.pos(), f.detail(), f.getMessage());
  }
}
