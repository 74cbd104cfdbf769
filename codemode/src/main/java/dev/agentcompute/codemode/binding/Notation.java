package dev.agentcompute.codemode.binding;

import dev.agentcompute.codemode.FieldShape;
import dev.agentcompute.codemode.OneOf;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;

/**
 * The compact model-facing type notation: {@code str}, {@code list[T]}, {@code {a: T, b?: U}},
 * {@code T | None}.
 */
public final class Notation {

  private Notation() {}

  public static String of(TypeNode node) {
    StringBuilder b = new StringBuilder();
    write(b, node);
    return b.toString();
  }

  private static void write(StringBuilder b, TypeNode node) {
    switch (node) {
      case TypeNode.Str s -> b.append("str");
      case TypeNode.Int i -> b.append("int");
      case TypeNode.Bool x -> b.append("bool");
      case TypeNode.Flt f -> b.append("float");
      case TypeNode.ListOf l -> {
        b.append("list[");
        write(b, l.elem());
        b.append(']');
      }
      case TypeNode.DictOf d -> {
        b.append("dict[str, ");
        write(b, d.elem());
        b.append(']');
      }
      case TypeNode.Opt o -> {
        write(b, o.elem());
        b.append(" | None");
      }
      case TypeNode.Struct s -> {
        b.append('{');
        boolean first = true;
        for (TypeNode.Field f : s.fields()) {
          if (!first) {
            b.append(", ");
          }
          first = false;
          b.append(isPlain(f.name()) ? f.name() : GoQuote.quote(f.name()));
          if (f.omitEmpty() && f.type() instanceof TypeNode.Opt o) {
            b.append("?: ");
            write(b, o.elem());
          } else {
            b.append(": ");
            write(b, f.type());
          }
        }
        b.append('}');
      }
    }
  }

  /** Member names with identifier syntax (keywords included) are rendered bare. */
  static boolean isPlain(String name) {
    return Names.isIdentifierSyntax(name);
  }

  /**
   * {@code name(*, a: T, b: U | None)} or {@code name()}; a {@link OneOf} input shows its values
   * instead of {@code str}: {@code until: "running" | "stopped"} (ours).
   */
  public static String signature(String name, TypeNode.Struct input) {
    StringBuilder b = new StringBuilder(name).append('(');
    if (!input.fields().isEmpty()) {
      b.append("*");
      for (TypeNode.Field f : input.fields()) {
        b.append(", ").append(f.name()).append(": ");
        List<String> values = oneOf(input, f);
        if (values.isEmpty()) {
          write(b, f.type());
          continue;
        }
        for (int i = 0; i < values.size(); i++) {
          b.append(i == 0 ? "" : " | ").append(GoQuote.quote(values.get(i)));
        }
        if (f.type() instanceof TypeNode.Opt) {
          b.append(" | None");
        }
      }
    }
    return b.append(')').toString();
  }

  /** The values a root input lists with {@link OneOf}; empty when it lists none. */
  static List<String> oneOf(TypeNode.Struct input, TypeNode.Field f) {
    if (f.accessor() == null || !input.type().isRecord()) {
      return List.of();
    }
    for (RecordComponent rc : input.type().getRecordComponents()) {
      if (rc.getAccessor().equals(f.accessor())) {
        OneOf oneOf = rc.getAnnotation(OneOf.class);
        return oneOf == null ? List.of() : List.of(oneOf.value());
      }
    }
    return List.of();
  }

  /** Root input fields: optional inputs render {@code T | None} and are not required. */
  public static List<FieldShape> inputShapes(TypeNode.Struct input) {
    List<FieldShape> out = new ArrayList<>();
    for (TypeNode.Field f : input.fields()) {
      out.add(new FieldShape(f.name(), of(f.type()), !(f.type() instanceof TypeNode.Opt)));
    }
    return List.copyOf(out);
  }

  /** Root output fields: an omitted-when-empty field drops {@code | None} and is not required. */
  public static List<FieldShape> outputShapes(TypeNode.Struct output) {
    List<FieldShape> out = new ArrayList<>();
    for (TypeNode.Field f : output.fields()) {
      if (f.omitEmpty() && f.type() instanceof TypeNode.Opt o) {
        out.add(new FieldShape(f.name(), of(o.elem()), false));
      } else {
        out.add(new FieldShape(f.name(), of(f.type()), true));
      }
    }
    return List.copyOf(out);
  }
}
