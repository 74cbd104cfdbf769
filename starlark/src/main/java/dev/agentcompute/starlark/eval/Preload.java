package dev.agentcompute.starlark.eval;

/**
 * Initialises up front the classes with static state that a program may first reach deep in a
 * recursion. Initialising a class there can fail with a StackOverflowError, and a class whose
 * initialisation failed stays unusable for the life of the JVM (NoClassDefFoundError on every later
 * use, in every later execution of a reused worker): the interpreter fuzz test found EvalError so
 * broken by a deeply recursive program.
 */
final class Preload {
  private Preload() {}

  private static final Class<?>[] CLASSES = {
    EvalError.class,
    EvalError.StackEntry.class,
    Hashing.class,
    IntCost.class,
    IntParser.class,
    Comparison.class,
    Printer.class,
    Formatter.class,
    FloatFormat.class,
    Strings.class,
    StringMethods.class,
    ListMethods.class,
    DictMethods.class,
    SetMethods.class,
    BytesMethods.class,
    StringIterable.class,
    GoSort.class,
    SizeLimitException.class,
    StepLimitException.class,
    AllocationLimitException.class,
    CancelledException.class,
    DepthLimitException.class,
  };

  /** Called from the evaluator's static initialiser, at the first execution's top level. */
  static void classes() {
    initialize(CLASSES);
  }

  /** Initialises {@code classes} now (a class literal alone does not). */
  static void initialize(Class<?>... classes) {
    for (Class<?> c : classes) {
      try {
        Class.forName(c.getName(), true, c.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e); // a class we name always exists
      }
    }
  }
}
