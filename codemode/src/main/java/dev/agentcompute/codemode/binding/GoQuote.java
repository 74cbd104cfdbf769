package dev.agentcompute.codemode.binding;

/**
 * Go {@code strconv.Quote}: double quotes, escapes for quotes, backslash and non-printable runes.
 */
public final class GoQuote {

  private GoQuote() {}

  public static String quote(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      switch (cp) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        case 7 -> b.append("\\a");
        case 8 -> b.append("\\b");
        case 12 -> b.append("\\f");
        case 11 -> b.append("\\v");
        default -> {
          if (Character.isSurrogate((char) cp) && cp <= 0xFFFF) {
            b.append("\\ufffd");
          } else if (isGraphic(cp)) {
            b.appendCodePoint(cp);
          } else if (cp < 0x80) {
            b.append(String.format("\\x%02x", cp));
          } else if (cp < 0x10000) {
            b.append(String.format("\\u%04x", cp));
          } else {
            b.append(String.format("\\U%08x", cp));
          }
        }
      }
    }
    return b.append('"').toString();
  }

  private static boolean isGraphic(int cp) {
    if (cp == ' ') {
      return true;
    }
    return switch (Character.getType(cp)) {
      case Character.CONTROL,
          Character.FORMAT,
          Character.PRIVATE_USE,
          Character.SURROGATE,
          Character.UNASSIGNED,
          Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR,
          Character.SPACE_SEPARATOR ->
          false;
      default -> true;
    };
  }
}
