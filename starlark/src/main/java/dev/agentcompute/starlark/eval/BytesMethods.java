package dev.agentcompute.starlark.eval;

import java.util.List;

/** The methods of bytes values: only {@code elems()}, as in starlark-go. */
final class BytesMethods {
  private static final Builtin ELEMS =
      new Builtin(
          "elems",
          (t, fn, a, kw) -> {
            Args.positional("elems", a, kw, 0, 0);
            return new StringIterable((StarlarkBytes) fn.receiver());
          });

  private BytesMethods() {}

  static Value attr(StarlarkBytes b, String name) {
    return name.equals("elems") ? ELEMS.bindTo(b) : null;
  }

  static List<String> names() {
    return List.of("elems");
  }
}
