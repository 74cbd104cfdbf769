package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.Dialect;
import dev.agentcompute.starlark.syntax.Binding;
import dev.agentcompute.starlark.syntax.FileNode;
import dev.agentcompute.starlark.syntax.Position;
import dev.agentcompute.starlark.syntax.Scope;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A parsed and resolved Starlark file, ready to run. {@link #init} executes its top level in a
 * fresh {@link Module} and then freezes the module's globals (starlark-go's ExecFile).
 */
public final class Program {
  private final FileNode file;
  private final Dialect dialect;
  private final List<String> globalNames;

  public Program(FileNode file, Dialect dialect) {
    this.file = file;
    this.dialect = dialect;
    List<String> names = new ArrayList<>();
    for (Binding b : file.globals) {
      names.add(b.first.name);
    }
    this.globalNames = Collections.unmodifiableList(names);
  }

  public String filename() {
    return file.path;
  }

  public Dialect dialect() {
    return dialect;
  }

  /** The names the program binds at top level, in order of first binding. */
  public Set<String> globalNames() {
    return Collections.unmodifiableSet(new LinkedHashSet<>(globalNames));
  }

  /**
   * Runs the top level with the given predeclared values (names not found there come from the
   * Universe), then freezes every global.
   */
  public Module init(StarlarkThread thread, Map<String, ? extends Value> predeclared)
      throws EvalError {
    Module module = new Module(file.path, globalNames);
    Value[] outside = new Value[file.outsideNames.size()];
    for (int i = 0; i < outside.length; i++) {
      String name = file.outsideNames.get(i);
      Value v = predeclared.get(name);
      if (v == null) {
        v = Universe.get(name);
      }
      outside[i] = v;
    }
    Value[] locals = new Value[file.moduleLocals.size()];
    for (Binding b : file.moduleLocals) {
      if (b.scope == Scope.CELL) {
        locals[b.index] = new Cell(null);
      }
    }
    EvalFrame fr =
        new EvalFrame(
            thread,
            null,
            "<toplevel>",
            module,
            locals,
            new Cell[0],
            outside,
            new Position(file.path, 1, 1));
    fr.programRef = this;
    int depth = thread.depth();
    thread.pushFrame(fr);
    try {
      Eval.exec(fr, file.stmts);
    } catch (EvalError e) {
      throw e;
    } catch (EvalException e) {
      throw Eval.positioned(fr, fr.pos, e);
    } catch (StackOverflowError e) {
      throw Eval.positioned(fr, fr.pos, new EvalException("Starlark stack overflow"));
    } finally {
      thread.popFramesTo(depth);
      module.freeze();
    }
    return module;
  }
}
