package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.RegoNumber;
import dev.agentcompute.rego.value.RegoValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * {@code units.parse} (SI and binary suffixes, {@code m} is milli) and {@code units.parse_bytes}
 * (case-insensitive byte units, truncated to an integer), with OPA's messages.
 */
final class Units {
  private Units() {}

  private static final int MAX_EXPONENT_DIGITS = 6;

  static void register(Registry r) {
    r.add("units.parse", 1, (c, a) -> parse(Args.string(a, 0)));
    r.add("units.parse_bytes", 1, (c, a) -> parseBytes(Args.string(a, 0)));
  }

  private static BuiltinError error(String fn, String msg) {
    return BuiltinError.of(fn + ": " + msg);
  }

  /** Splits into the number part and the unit part; null number part if it has none. */
  private static String[] split(String s, String fn) throws BuiltinError {
    int cut = -1;
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      boolean num = Character.isDigit(ch) || ch == '.';
      if (!num && ch != 'e' && ch != 'E' && ch != '+' && ch != '-') {
        cut = i;
        break;
      }
      if (ch == 'e' || ch == 'E') {
        if (i == s.length() - 1
            || (!Character.isDigit(s.charAt(i + 1))
                && s.charAt(i + 1) != '+'
                && s.charAt(i + 1) != '-')) {
          cut = i;
          break;
        }
        if (s.charAt(i + 1) == '+' || s.charAt(i + 1) == '-') {
          i++;
        }
        int start = i + 1;
        int end = start;
        while (end < s.length() && Character.isDigit(s.charAt(end))) {
          end++;
        }
        if (end - start > MAX_EXPONENT_DIGITS) {
          throw error(fn, "exponent too large");
        }
      }
    }
    if (cut == -1) {
      return new String[] {s, ""};
    }
    return new String[] {s.substring(0, cut), s.substring(cut)};
  }

  private static BigDecimal number(String num, String fn, String what) throws BuiltinError {
    if (!num.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
      throw error(fn, "could not parse " + what + " to a number");
    }
    return new BigDecimal(num.startsWith("+") ? num.substring(1) : num);
  }

  private static RegoValue parse(String raw) throws BuiltinError {
    String fn = "units.parse";
    String s = raw.replace("\"", "");
    if (s.contains(" ")) {
      throw error(fn, "spaces not allowed in resource strings");
    }
    String[] parts = split(s, fn);
    if (parts[0].isEmpty()) {
      throw error(fn, "no amount provided");
    }
    String unit = parts[1];
    if (unit.length() > 1) {
      unit = unit.charAt(0) + unit.substring(1).toLowerCase(Locale.ROOT);
    }
    BigDecimal factor =
        switch (unit) {
          case "m" -> new BigDecimal("0.001");
          case "" -> BigDecimal.ONE;
          case "k", "K" -> pow(1000, 1);
          case "ki", "Ki" -> pow(1024, 1);
          case "M" -> pow(1000, 2);
          case "mi", "Mi" -> pow(1024, 2);
          case "g", "G" -> pow(1000, 3);
          case "gi", "Gi" -> pow(1024, 3);
          case "t", "T" -> pow(1000, 4);
          case "ti", "Ti" -> pow(1024, 4);
          case "p", "P" -> pow(1000, 5);
          case "pi", "Pi" -> pow(1024, 5);
          case "e", "E" -> pow(1000, 6);
          case "ei", "Ei" -> pow(1024, 6);
          default -> throw error(fn, "unit " + unit + " not recognized");
        };
    BigDecimal v = number(parts[0], fn, "amount").multiply(factor);
    BigDecimal stripped = v.stripTrailingZeros();
    if (stripped.scale() <= 0) {
      return RegoNumber.of(stripped.toBigIntegerExact());
    }
    String text = v.setScale(10, RoundingMode.HALF_EVEN).toPlainString();
    return RegoNumber.of(new BigDecimal(text), text);
  }

  private static BigDecimal pow(int base, int n) {
    return new BigDecimal(BigInteger.valueOf(base).pow(n));
  }

  private static RegoValue parseBytes(String raw) throws BuiltinError {
    String fn = "units.parse_bytes";
    String s = raw.toLowerCase(Locale.ROOT).replace("\"", "");
    if (s.contains(" ")) {
      throw error(fn, "spaces not allowed in resource strings");
    }
    String[] parts = split(s, fn);
    if (parts[0].isEmpty()) {
      throw error(fn, "no byte amount provided");
    }
    BigDecimal factor =
        switch (parts[1]) {
          case "" -> BigDecimal.ONE;
          case "kb", "k" -> pow(1000, 1);
          case "kib", "ki" -> pow(1024, 1);
          case "mb", "m" -> pow(1000, 2);
          case "mib", "mi" -> pow(1024, 2);
          case "gb", "g" -> pow(1000, 3);
          case "gib", "gi" -> pow(1024, 3);
          case "tb", "t" -> pow(1000, 4);
          case "tib", "ti" -> pow(1024, 4);
          case "pb", "p" -> pow(1000, 5);
          case "pib", "pi" -> pow(1024, 5);
          case "eb", "e" -> pow(1000, 6);
          case "eib", "ei" -> pow(1024, 6);
          default -> throw error(fn, "byte unit " + parts[1] + " not recognized");
        };
    BigDecimal n = number(parts[0], fn, "byte amount");
    // OPA multiplies as 64-bit-mantissa floats, then truncates to an integer.
    BigFloat product = BigFloat.of(RegoNumber.of(n)).mul(BigFloat.of(factor.toBigIntegerExact()));
    return RegoNumber.of(product.truncate());
  }
}
