package dev.agentcompute.starlark;

/**
 * Which optional language features a program may use (starlark-go's syntax.FileOptions plus whether
 * load statements may actually load), and whose wording of static errors it gets. All features off
 * is CodeMode's dialect.
 *
 * @param set the universe name {@code set} may be used
 * @param whileLoops {@code while} statements are allowed
 * @param topLevelControl {@code if}/{@code for}/{@code while} allowed outside functions
 * @param globalReassign a top-level name may be bound more than once
 * @param recursion a function may call itself (directly or indirectly)
 * @param load load statements execute through the thread's loader; otherwise they fail with "module
 *     loading is disabled"
 * @param loadBindsGlobally load binds global (not file-local) names
 * @param codeModeTexts static errors read as CodeMode's pinned starlark-go words them where that
 *     differs from upstream starlark-go, whose testdata the conformance suite holds: a repeated
 *     keyword argument is {@code keyword argument key repeated} (CodeMode's spec, row 90) rather
 *     than upstream's {@code keyword argument "key" is repeated}
 */
public record Dialect(
    boolean set,
    boolean whileLoops,
    boolean topLevelControl,
    boolean globalReassign,
    boolean recursion,
    boolean load,
    boolean loadBindsGlobally,
    boolean codeModeTexts) {
  /** CodeMode: every feature off; load statements parse but fail when executed. */
  public static final Dialect CODEMODE =
      new Dialect(false, false, false, false, false, false, false, true);

  /** Everything a general-purpose embedding may want. */
  public static final Dialect FULL = new Dialect(true, true, true, true, true, true, false, false);

  /** A dialect with upstream starlark-go's error texts. */
  public Dialect(
      boolean set,
      boolean whileLoops,
      boolean topLevelControl,
      boolean globalReassign,
      boolean recursion,
      boolean load,
      boolean loadBindsGlobally) {
    this(
        set,
        whileLoops,
        topLevelControl,
        globalReassign,
        recursion,
        load,
        loadBindsGlobally,
        false);
  }
}
