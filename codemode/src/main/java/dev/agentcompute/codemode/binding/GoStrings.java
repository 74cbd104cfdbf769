package dev.agentcompute.codemode.binding;

import java.nio.charset.StandardCharsets;

/** Go string semantics the contracts depend on: UTF-8 lengths, TrimSpace, unicode predicates. */
public final class GoStrings {

  private GoStrings() {}

  public static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  /** Unicode White_Space, as Go's {@code unicode.IsSpace}. */
  public static boolean isSpace(int cp) {
    return switch (cp) {
      case '\t',
          '\n',
          0x0B,
          '\f',
          '\r',
          ' ',
          0x85,
          0xA0,
          0x1680,
          0x2028,
          0x2029,
          0x202F,
          0x205F,
          0x3000 ->
          true;
      default -> cp >= 0x2000 && cp <= 0x200A;
    };
  }

  /** Go {@code strings.TrimSpace}. */
  public static String trimSpace(String s) {
    int start = 0;
    int end = s.length();
    while (start < end) {
      int cp = s.codePointAt(start);
      if (!isSpace(cp)) {
        break;
      }
      start += Character.charCount(cp);
    }
    while (end > start) {
      int cp = s.codePointBefore(end);
      if (!isSpace(cp)) {
        break;
      }
      end -= Character.charCount(cp);
    }
    return s.substring(start, end);
  }

  public static boolean hasSurroundingSpace(String s) {
    return !trimSpace(s).equals(s);
  }

  /** Go {@code unicode.IsLetter}: category L. */
  public static boolean isLetter(int cp) {
    return Character.isLetter(cp);
  }

  /** Go {@code unicode.IsDigit}: category Nd. */
  public static boolean isDigit(int cp) {
    return Character.getType(cp) == Character.DECIMAL_DIGIT_NUMBER;
  }

  /** Go {@code unicode.IsUpper}: category Lu only. */
  public static boolean isUpper(int cp) {
    return Character.getType(cp) == Character.UPPERCASE_LETTER;
  }

  /** Go {@code unicode.IsLower}: category Ll only. */
  public static boolean isLower(int cp) {
    return Character.getType(cp) == Character.LOWERCASE_LETTER;
  }

  /** Go {@code strings.ToLower}: rune by rune simple case mapping, no locale rules. */
  public static String toLower(String s) {
    StringBuilder b = new StringBuilder(s.length());
    s.codePoints().forEach(cp -> b.appendCodePoint(Character.toLowerCase(cp)));
    return b.toString();
  }
}
