package dev.agentcompute.codemode;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A handler failure whose message is meant for the model. Throw it (or any exception whose cause
 * chain contains it) from a handler: the client then sees {@code capability failed: <sanitized
 * message>}. Only {@link #getMessage()} is disclosed, never the text of wrapping exceptions. Do not
 * put secrets in it.
 */
public class AgentError extends Exception {

  static final int MAX_DETAIL_BYTES = 256;

  public AgentError(String message) {
    super(message);
  }

  public AgentError(String message, Throwable cause) {
    super(message, cause);
  }

  /** The message as a client may see it, empty when there is nothing to disclose. */
  public Optional<String> safeMessage() {
    String m = getMessage();
    if (m == null || m.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(sanitize(m));
  }

  /** The first AgentError in {@code error}'s cause chain. */
  public static Optional<AgentError> find(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof AgentError a) {
        return Optional.of(a);
      }
    }
    return Optional.empty();
  }

  /**
   * Replaces every code point that is not printable (Go {@code unicode.IsPrint}: letters, marks,
   * numbers, punctuation, symbols and U+0020) by a space and unpaired surrogates by U+FFFD, then
   * caps the UTF-8 size at 256 bytes: a longer text is cut at a code point boundary within 253
   * bytes and ends with {@code ...}.
   */
  public static String sanitize(String message) {
    return sanitize(message, MAX_DETAIL_BYTES);
  }

  /** {@link #sanitize(String)} with another cap of {@code maxBytes} UTF-8 bytes. */
  public static String sanitize(String message, int maxBytes) {
    StringBuilder out = new StringBuilder(message.length());
    message
        .codePoints()
        .forEach(
            cp -> {
              if (Character.isSurrogate((char) cp) && cp <= 0xFFFF) {
                out.append('\uFFFD');
              } else if (isPrint(cp)) {
                out.appendCodePoint(cp);
              } else {
                out.append(' ');
              }
            });
    String s = out.toString();
    if (s.getBytes(StandardCharsets.UTF_8).length <= maxBytes) {
      return s;
    }
    StringBuilder cut = new StringBuilder();
    int bytes = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      int n = utf8Length(cp);
      if (bytes + n > maxBytes - 3) {
        break;
      }
      cut.appendCodePoint(cp);
      bytes += n;
      i += Character.charCount(cp);
    }
    return cut.append("...").toString();
  }

  static boolean isPrint(int cp) {
    if (cp == ' ') {
      return true;
    }
    return switch (Character.getType(cp)) {
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
          Character.OTHER_SYMBOL ->
          true;
      default -> false;
    };
  }

  static int utf8Length(int cp) {
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
}
