package dev.agentcompute.starlark.eval;

/**
 * UTF-8 decoding and encoding with Go's {@code unicode/utf8} rules (invalid byte -> U+FFFD, width
 * 1).
 */
final class Utf8 {
  static final int RUNE_ERROR = 0xFFFD;

  private Utf8() {}

  /** Decodes the rune at {@code i}: returns {@code (width << 32) | rune}. */
  static long decode(byte[] b, int i, int end) {
    int b0 = b[i] & 0xFF;
    if (b0 < 0x80) {
      return (1L << 32) | b0;
    }
    int n = end - i;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
      if (n >= 2 && cont(b[i + 1])) {
        return (2L << 32) | ((b0 & 0x1F) << 6) | (b[i + 1] & 0x3F);
      }
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      if (n >= 3) {
        int b1 = b[i + 1] & 0xFF;
        int lo = b0 == 0xE0 ? 0xA0 : 0x80;
        int hi = b0 == 0xED ? 0x9F : 0xBF;
        if (b1 >= lo && b1 <= hi && cont(b[i + 2])) {
          return (3L << 32) | ((b0 & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (b[i + 2] & 0x3F);
        }
      }
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      if (n >= 4) {
        int b1 = b[i + 1] & 0xFF;
        int lo = b0 == 0xF0 ? 0x90 : 0x80;
        int hi = b0 == 0xF4 ? 0x8F : 0xBF;
        if (b1 >= lo && b1 <= hi && cont(b[i + 2]) && cont(b[i + 3])) {
          return (4L << 32)
              | ((b0 & 0x07) << 18)
              | ((b1 & 0x3F) << 12)
              | ((b[i + 2] & 0x3F) << 6)
              | (b[i + 3] & 0x3F);
        }
      }
    }
    return (1L << 32) | RUNE_ERROR;
  }

  static int rune(long decoded) {
    return (int) decoded;
  }

  static int width(long decoded) {
    return (int) (decoded >>> 32);
  }

  private static boolean cont(byte x) {
    return (x & 0xC0) == 0x80;
  }

  /** Appends the UTF-8 encoding of {@code r} (surrogates and out-of-range become U+FFFD). */
  static void encode(java.io.ByteArrayOutputStream out, int r) {
    if (r < 0 || r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF)) {
      r = RUNE_ERROR;
    }
    if (r < 0x80) {
      out.write(r);
    } else if (r < 0x800) {
      out.write(0xC0 | (r >> 6));
      out.write(0x80 | (r & 0x3F));
    } else if (r < 0x10000) {
      out.write(0xE0 | (r >> 12));
      out.write(0x80 | ((r >> 6) & 0x3F));
      out.write(0x80 | (r & 0x3F));
    } else {
      out.write(0xF0 | (r >> 18));
      out.write(0x80 | ((r >> 12) & 0x3F));
      out.write(0x80 | ((r >> 6) & 0x3F));
      out.write(0x80 | (r & 0x3F));
    }
  }

  static byte[] encode(int r) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(4);
    encode(out, r);
    return out.toByteArray();
  }

  /** Number of runes (Go's utf8.RuneCount). */
  /** True if every byte is ASCII (so bytes and UTF-16 units correspond one to one). */
  static boolean isAscii(byte[] b) {
    for (byte x : b) {
      if (x < 0) {
        return false;
      }
    }
    return true;
  }

  static int runeCount(byte[] b, int start, int end) {
    int n = 0;
    for (int i = start; i < end; ) {
      i += (b[i] >= 0) ? 1 : width(decode(b, i, end));
      n++;
    }
    return n;
  }

  /** Go's strconv.IsPrint, approximated with Java's Unicode tables. */
  static boolean isPrint(int r) {
    if (r < 0x80) {
      return r >= 0x20 && r < 0x7F;
    }
    switch (Character.getType(r)) {
      case Character.UPPERCASE_LETTER,
          Character.LOWERCASE_LETTER,
          Character.TITLECASE_LETTER,
          Character.MODIFIER_LETTER,
          Character.OTHER_LETTER,
          Character.NON_SPACING_MARK,
          Character.ENCLOSING_MARK,
          Character.COMBINING_SPACING_MARK,
          Character.DECIMAL_DIGIT_NUMBER,
          Character.LETTER_NUMBER,
          Character.OTHER_NUMBER,
          Character.CONNECTOR_PUNCTUATION,
          Character.DASH_PUNCTUATION,
          Character.START_PUNCTUATION,
          Character.END_PUNCTUATION,
          Character.INITIAL_QUOTE_PUNCTUATION,
          Character.FINAL_QUOTE_PUNCTUATION,
          Character.OTHER_PUNCTUATION,
          Character.MATH_SYMBOL,
          Character.CURRENCY_SYMBOL,
          Character.MODIFIER_SYMBOL,
          Character.OTHER_SYMBOL -> {
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  /** Go's syntax.Quote: a double-quoted literal with Go escapes, {@code b} prefix for bytes. */
  static void quote(StringBuilder sb, byte[] s, int start, int end, boolean isBytes) {
    final String hex = "0123456789abcdef";
    if (isBytes) {
      sb.append('b');
    }
    sb.append('"');
    for (int i = start; i < end; ) {
      int r = s[i] & 0xFF;
      int width = 1;
      if (r >= 0x80) {
        long d = decode(s, i, end);
        r = rune(d);
        width = width(d);
      }
      if (width == 1 && r == RUNE_ERROR) {
        sb.append("\\x").append(hex.charAt((s[i] >> 4) & 0xF)).append(hex.charAt(s[i] & 0xF));
        i++;
        continue;
      }
      i += width;
      if (r == '"' || r == '\\') {
        sb.append('\\').append((char) r);
        continue;
      }
      if (isPrint(r)) {
        sb.appendCodePoint(r);
        continue;
      }
      switch (r) {
        case 0x07 -> sb.append("\\a");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case 0x0B -> sb.append("\\v");
        default -> {
          if (r < ' ' || r == 0x7f) {
            sb.append("\\x").append(hex.charAt((r >> 4) & 0xF)).append(hex.charAt(r & 0xF));
          } else if (r < 0x10000) {
            sb.append("\\u");
            for (int sh = 12; sh >= 0; sh -= 4) {
              sb.append(hex.charAt((r >> sh) & 0xF));
            }
          } else {
            sb.append("\\U");
            for (int sh = 28; sh >= 0; sh -= 4) {
              sb.append(hex.charAt((r >> sh) & 0xF));
            }
          }
        }
      }
    }
    sb.append('"');
  }
}
