package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Operand checks shared by every builtin, with OPA's wording ({@code operand 2 must be string but
 * got number}), so type errors read the same everywhere. Positions are 1-based.
 */
final class Args {
  private Args() {}

  static BuiltinError typeError(int pos, RegoValue got, String... expected) {
    if (expected.length == 1) {
      return BuiltinError.type(
          "operand " + pos + " must be " + expected[0] + " but got " + got.typeName());
    }
    return BuiltinError.type(
        "operand "
            + pos
            + " must be one of {"
            + String.join(", ", expected)
            + "} but got "
            + got.typeName());
  }

  static BuiltinError elementError(int pos, RegoValue composite, RegoValue got, String expected) {
    String t = composite.typeName();
    return BuiltinError.type(
        "operand "
            + pos
            + " must be "
            + t
            + " of "
            + expected
            + "s but got "
            + t
            + " containing "
            + got.typeName());
  }

  static String string(RegoValue[] args, int i) throws BuiltinError {
    if (args[i] instanceof RegoString s) {
      return s.value();
    }
    throw typeError(i + 1, args[i], "string");
  }

  static RegoNumber number(RegoValue[] args, int i) throws BuiltinError {
    if (args[i] instanceof RegoNumber n) {
      return n;
    }
    throw typeError(i + 1, args[i], "number");
  }

  /** An integer operand that fits an int (indexes, lengths, bases). */
  static int intValue(RegoValue[] args, int i) throws BuiltinError {
    RegoNumber n = number(args, i);
    if (!n.isInteger()) {
      throw BuiltinError.type(
          "operand " + (i + 1) + " must be integer number but got floating-point number");
    }
    if (!n.fitsLong() || n.longValue() > Integer.MAX_VALUE || n.longValue() < Integer.MIN_VALUE) {
      throw BuiltinError.of("operand " + (i + 1) + " is out of range");
    }
    return (int) n.longValue();
  }

  static RegoArray array(RegoValue[] args, int i) throws BuiltinError {
    if (args[i] instanceof RegoArray a) {
      return a;
    }
    throw typeError(i + 1, args[i], "array");
  }

  static RegoObject object(RegoValue[] args, int i) throws BuiltinError {
    if (args[i] instanceof RegoObject o) {
      return o;
    }
    throw typeError(i + 1, args[i], "object");
  }

  static RegoSet set(RegoValue[] args, int i) throws BuiltinError {
    if (args[i] instanceof RegoSet s) {
      return s;
    }
    throw typeError(i + 1, args[i], "set");
  }

  /** The elements of an array or set operand. */
  static List<RegoValue> elements(RegoValue[] args, int i) throws BuiltinError {
    return switch (args[i]) {
      case RegoArray a -> a.asList();
      case RegoSet s -> s.asList();
      default -> throw typeError(i + 1, args[i], "array", "set");
    };
  }

  /** An array or set of strings. */
  static List<String> strings(RegoValue[] args, int i) throws BuiltinError {
    List<RegoValue> elems = elements(args, i);
    List<String> out = new ArrayList<>(elems.size());
    for (RegoValue v : elems) {
      if (!(v instanceof RegoString s)) {
        throw elementError(i + 1, args[i], v, "string");
      }
      out.add(s.value());
    }
    return out;
  }
}
