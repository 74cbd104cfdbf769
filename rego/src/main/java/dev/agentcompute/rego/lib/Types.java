package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoArray;
import dev.agentcompute.rego.value.RegoBoolean;
import dev.agentcompute.rego.value.RegoNull;
import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoObject;
import dev.agentcompute.rego.value.RegoSet;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;

/** is_number and friends, type_name, to_number. */
final class Types {
  private Types() {}

  static void register(Registry r) {
    r.add("is_number", 1, (c, a) -> RegoBoolean.of(a[0] instanceof RegoNumber));
    r.add("is_string", 1, (c, a) -> RegoBoolean.of(a[0] instanceof RegoString));
    r.add("is_boolean", 1, (c, a) -> RegoBoolean.of(a[0] instanceof RegoBoolean));
    r.add("is_array", 1, (c, a) -> RegoBoolean.of(a[0] instanceof RegoArray));
    r.add("is_set", 1, (c, a) -> RegoBoolean.of(a[0] instanceof RegoSet));
    r.add("is_object", 1, (c, a) -> RegoBoolean.of(a[0] instanceof RegoObject));
    r.add("is_null", 1, (c, a) -> RegoBoolean.of(a[0] instanceof RegoNull));
    r.add("type_name", 1, (c, a) -> RegoString.of(a[0].typeName()));
    r.add("to_number", 1, (c, a) -> toNumber(a));
  }

  private static RegoValue toNumber(RegoValue[] a) throws BuiltinError {
    return switch (a[0]) {
      case RegoNull n -> RegoNumber.ZERO;
      case RegoBoolean b -> b.value() ? RegoNumber.ONE : RegoNumber.ZERO;
      case RegoNumber n -> n;
      case RegoString s -> parse(s.value());
      default -> throw Args.typeError(1, a[0], "null", "boolean", "number", "string");
    };
  }

  private static final java.util.regex.Pattern DECIMAL =
      java.util.regex.Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
  private static final java.util.regex.Pattern JSON_NUMBER =
      java.util.regex.Pattern.compile("-?(0|[1-9]\\d*)(\\.\\d+)?([eE][+-]?\\d+)?");

  /** Go's {@code strconv.ParseFloat} decimal syntax; the number keeps the string's text. */
  private static RegoNumber parse(String s) throws BuiltinError {
    String lower = s.replaceFirst("^[+-]+", "").toLowerCase(java.util.Locale.ROOT);
    if (lower.equals("inf") || lower.equals("infinity") || lower.equals("nan")) {
      throw BuiltinError.type("operand 1 must be valid number string but got string");
    }
    if (!DECIMAL.matcher(s).matches()) {
      throw BuiltinError.of(
          "strconv.ParseFloat: parsing "
              + dev.agentcompute.rego.value.Json.quote(s)
              + ": invalid syntax");
    }
    java.math.BigDecimal d = new java.math.BigDecimal(s.startsWith("+") ? s.substring(1) : s);
    if (d.signum() != 0 && (d.precision() - d.scale() > 309 || d.precision() - d.scale() < -330)) {
      throw BuiltinError.of(
          "strconv.ParseFloat: parsing "
              + dev.agentcompute.rego.value.Json.quote(s)
              + ": value out of range");
    }
    return RegoNumber.of(d, JSON_NUMBER.matcher(s).matches() ? s : null);
  }
}
