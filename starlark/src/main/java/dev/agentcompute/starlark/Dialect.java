package dev.agentcompute.starlark;

/**
 * Which optional language features a program may use (starlark-go's syntax.FileOptions plus
 * whether load statements may actually load). All false is CodeMode's dialect.
 *
 * @param set the universe name {@code set} may be used
 * @param whileLoops {@code while} statements are allowed
 * @param topLevelControl {@code if}/{@code for}/{@code while} allowed outside functions
 * @param globalReassign a top-level name may be bound more than once
 * @param recursion a function may call itself (directly or indirectly)
 * @param load load statements execute through the thread's loader; otherwise they fail with
 *     "module loading is disabled"
 * @param loadBindsGlobally load binds global (not file-local) names
 */
public record Dialect(boolean set, boolean whileLoops, boolean topLevelControl,
                      boolean globalReassign, boolean recursion, boolean load,
                      boolean loadBindsGlobally) {
  /** CodeMode: every feature off; load statements parse but fail when executed. */
  public static final Dialect CODEMODE = new Dialect(false, false, false, false, false, false, false);
  /** Everything a general-purpose embedding may want. */
  public static final Dialect FULL = new Dialect(true, true, true, true, true, true, false);

  public Dialect(boolean set, boolean whileLoops, boolean topLevelControl, boolean globalReassign,
                 boolean recursion, boolean load) {
    this(set, whileLoops, topLevelControl, globalReassign, recursion, load, false);
  }
}
