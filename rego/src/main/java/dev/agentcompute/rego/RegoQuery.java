package dev.agentcompute.rego;

import dev.agentcompute.rego.compile.CompiledQuery;
import dev.agentcompute.rego.compile.Ir;
import dev.agentcompute.rego.eval.EvalFailure;
import dev.agentcompute.rego.eval.Evaluator;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A prepared query. Immutable and safe for concurrent evaluation. */
public final class RegoQuery {
  private final CompiledQuery query;
  private final List<String> variables;

  RegoQuery(CompiledQuery query) {
    this.query = query;
    List<String> names = new ArrayList<>();
    for (Ir.Local l : query.outputs()) {
      names.add(l.name());
    }
    this.variables = List.copyOf(names);
  }

  /** The result columns: the query's free variables, sorted by name. */
  public List<String> variables() {
    return variables;
  }

  /** Evaluates the query once. */
  public RegoResult eval(RegoOptions options) throws RegoEvalException {
    List<RegoValue[]> rows;
    try {
      rows =
          Evaluator.run(
              query,
              new Evaluator.Settings(
                  options.input(),
                  options.data(),
                  options.strictBuiltinErrors(),
                  options.maxSteps(),
                  options.maxDepth(),
                  options.cancellation()));
    } catch (EvalFailure f) {
      throw Failures.of(f);
    }
    List<List<RegoValue>> out = new ArrayList<>(rows.size());
    for (RegoValue[] r : rows) {
      out.add(List.copyOf(Arrays.asList(r)));
    }
    return new RegoResult(variables, List.copyOf(out));
  }
}
