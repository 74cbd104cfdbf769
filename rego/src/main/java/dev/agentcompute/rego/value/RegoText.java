package dev.agentcompute.rego.value;

/**
 * Values as Rego source text, as OPA prints terms ({@code [1, "a"]}, {@code {"k": v}}, {@code {1,
 * 2}}, {@code set()}): used by {@code sprintf("%v")}, error messages and {@code toString}.
 */
public final class RegoText {
  private RegoText() {}

  public static String of(RegoValue v) {
    StringBuilder b = new StringBuilder();
    append(b, v);
    return b.toString();
  }

  public static void append(StringBuilder b, RegoValue v) {
    switch (v) {
      case RegoNull n -> b.append("null");
      case RegoBoolean x -> b.append(x.value());
      case RegoNumber x -> b.append(x.text());
      case RegoString s -> b.append(Json.quote(s.value()));
      case RegoArray a -> {
        b.append('[');
        for (int i = 0; i < a.size(); i++) {
          if (i > 0) {
            b.append(", ");
          }
          append(b, a.get(i));
        }
        b.append(']');
      }
      case RegoSet s -> {
        if (s.size() == 0) {
          b.append("set()");
          return;
        }
        b.append('{');
        for (int i = 0; i < s.size(); i++) {
          if (i > 0) {
            b.append(", ");
          }
          append(b, s.get(i));
        }
        b.append('}');
      }
      case RegoObject o -> {
        b.append('{');
        for (int i = 0; i < o.size(); i++) {
          if (i > 0) {
            b.append(", ");
          }
          append(b, o.key(i));
          b.append(": ");
          append(b, o.value(i));
        }
        b.append('}');
      }
    }
  }
}
