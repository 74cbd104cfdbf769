package dev.agentcompute.rego;

import dev.agentcompute.rego.compile.CompileFailure;
import dev.agentcompute.rego.compile.CompiledPolicy;
import dev.agentcompute.rego.compile.Compiler;
import dev.agentcompute.rego.value.RegoValue;
import java.util.List;
import java.util.Optional;

/** Compiled modules, ready to prepare queries against. Immutable and thread-safe. */
public final class RegoPolicy {
  private final CompiledPolicy compiled;

  RegoPolicy(CompiledPolicy compiled) {
    this.compiled = compiled;
  }

  /** The module file names, sorted. */
  public List<String> files() {
    return compiled.files();
  }

  /**
   * Prepares a query (body literals separated by {@code ;} or newlines, e.g. {@code data.p.allow =
   * x}); its free variables are the result columns.
   */
  public RegoQuery prepare(String query) throws RegoCompileException {
    try {
      return new RegoQuery(Compiler.compileQuery(compiled, "query", query));
    } catch (CompileFailure f) {
      throw Failures.of(f);
    }
  }

  /**
   * Prepares the evaluation of one ground {@code data} reference (see {@link Rego#parseDataRef}):
   * the document there, or empty when it is undefined.
   */
  public Decision prepareDecision(List<RegoValue> dataPath) {
    return new Decision(new RegoQuery(Compiler.compileDataRef(compiled, List.copyOf(dataPath))));
  }

  /** A prepared {@code data} reference. Thread-safe. */
  public static final class Decision {
    private final RegoQuery query;

    private Decision(RegoQuery query) {
      this.query = query;
    }

    /** The referenced document, empty when undefined. */
    public Optional<RegoValue> eval(RegoOptions options) throws RegoEvalException {
      RegoResult r = query.eval(options);
      if (r.rows().isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(r.rows().get(0).get(0));
    }
  }
}
