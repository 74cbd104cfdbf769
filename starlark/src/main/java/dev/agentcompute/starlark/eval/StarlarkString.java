package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * An immutable string: a sequence of UTF-8 bytes, as in starlark-go. {@code len}, indexing and
 * slicing count bytes; a string is not iterable (use {@code elems()} or {@code codepoints()}). The
 * Java {@link String} form and the hash are computed lazily and cached.
 */
public final class StarlarkString implements Sliceable, HasAttrs, Comparable, Immutable {
  public static final StarlarkString EMPTY = new StarlarkString(new byte[0], "");
  private static final StarlarkString[] SINGLE_BYTES = new StarlarkString[256];

  static {
    for (int i = 0; i < 256; i++) {
      SINGLE_BYTES[i] =
          new StarlarkString(new byte[] {(byte) i}, i < 0x80 ? String.valueOf((char) i) : null);
    }
  }

  private byte[] bytes; // replaced only by an equal array, see share
  private String string;
  private int hash;
  private boolean hashed;

  private StarlarkString(byte[] bytes, String string) {
    this.bytes = bytes;
    this.string = string;
  }

  public static StarlarkString of(String s) {
    if (s.isEmpty()) {
      return EMPTY;
    }
    if (s.length() == 1 && s.charAt(0) < 0x80) {
      return SINGLE_BYTES[s.charAt(0)];
    }
    return new StarlarkString(s.getBytes(StandardCharsets.UTF_8), s);
  }

  /** Wraps UTF-8 (or arbitrary) bytes without copying; the caller must not modify the array. */
  public static StarlarkString ofBytes(byte[] b) {
    if (b.length == 0) {
      return EMPTY;
    }
    if (b.length == 1) {
      return SINGLE_BYTES[b[0] & 0xFF];
    }
    return new StarlarkString(b, null);
  }

  static StarlarkString ofBytes(byte[] b, int from, int to) {
    if (to - from == 1) {
      return SINGLE_BYTES[b[from] & 0xFF];
    }
    return ofBytes(Arrays.copyOfRange(b, from, to));
  }

  static StarlarkString ofByte(int b) {
    return SINGLE_BYTES[b & 0xFF];
  }

  /**
   * The string as Java text; each invalid UTF-8 byte decodes to U+FFFD, as Go's range loop does.
   */
  public String value() {
    String s = string;
    if (s == null) {
      s = decode(bytes);
      string = s;
    }
    return s;
  }

  private static String decode(byte[] b) {
    if (Utf8.isAscii(b)) {
      return new String(b, StandardCharsets.ISO_8859_1);
    }
    StringBuilder sb = null;
    for (int i = 0; i < b.length; ) {
      long d = Utf8.decode(b, i, b.length);
      int w = Utf8.width(d);
      if (sb == null && Utf8.rune(d) == Utf8.RUNE_ERROR && w == 1) {
        sb = new StringBuilder(b.length);
        sb.append(new String(b, 0, i, StandardCharsets.UTF_8));
      }
      if (sb != null) {
        sb.appendCodePoint(Utf8.rune(d));
      }
      i += w;
    }
    return sb == null ? new String(b, StandardCharsets.UTF_8) : sb.toString();
  }

  /** The UTF-8 bytes; callers must not modify the array. */
  byte[] bytes() {
    return bytes;
  }

  public byte[] toByteArray() {
    return bytes.clone();
  }

  public int byteAt(int i) {
    return bytes[i] & 0xFF;
  }

  @Override
  public int len() {
    return bytes.length;
  }

  @Override
  public Value index(int i) {
    return SINGLE_BYTES[bytes[i] & 0xFF];
  }

  @Override
  public Value slice(int start, int end, int step) {
    if (step == 1) {
      return start >= end ? EMPTY : ofBytes(bytes, start, end);
    }
    return ofBytes(Operators.sliceBytes(bytes, start, end, step));
  }

  @Override
  public String type() {
    return "string";
  }

  @Override
  public boolean truth() {
    return bytes.length != 0;
  }

  @Override
  public int hash() {
    if (!hashed) {
      hash = Hashing.ofBytes(bytes);
      hashed = true;
    }
    return hash;
  }

  /** The value of the {@code hash()} builtin: Java's String.hashCode over the UTF-16 form. */
  public int javaHash() {
    int h = 0;
    for (int i = 0; i < bytes.length; ) {
      long d = Utf8.decode(bytes, i, bytes.length);
      int r = Utf8.rune(d);
      i += Utf8.width(d);
      if (r >= 0x10000) {
        h = 31 * h + Character.highSurrogate(r);
        h = 31 * h + Character.lowSurrogate(r);
      } else {
        h = 31 * h + r;
      }
    }
    return h;
  }

  @Override
  public void repr(StringBuilder sb) {
    Utf8.quote(sb, bytes, 0, bytes.length, false);
  }

  @Override
  public void str(StringBuilder sb) {
    sb.append(value());
  }

  @Override
  public Value attr(String name) throws EvalException {
    return StringMethods.attr(this, name);
  }

  @Override
  public List<String> attrNames() {
    return StringMethods.names();
  }

  @Override
  public boolean compareSameType(Token op, Value y, Comparison cmp) {
    return Operators.threeway(op, compareBytes((StarlarkString) y));
  }

  /** Orders strings by their UTF-8 bytes, unsigned (Starlark's string order). */
  public int compareBytes(StarlarkString o) {
    int c = compare(bytes, o.bytes);
    if (c == 0) {
      share(o);
    }
    return c;
  }

  /** Unsigned byte order, immediate for a shared array. */
  static int compare(byte[] a, byte[] b) {
    return a == b ? 0 : Arrays.compareUnsigned(a, b);
  }

  public boolean equalsString(StarlarkString o) {
    if (this == o || bytes == o.bytes) {
      return true;
    }
    if (bytes.length != o.bytes.length || hash() != o.hash() || !Arrays.equals(bytes, o.bytes)) {
      return false;
    }
    share(o);
    return true;
  }

  /**
   * Makes two equal strings share one array, so that comparing them again takes no time: otherwise
   * a program can compare two long, equal but distinct strings (a dict key and the key looked up,
   * the elements of two lists) again and again, each time for one step.
   */
  private void share(StarlarkString o) {
    if (bytes != o.bytes) {
      bytes = o.bytes = shared(bytes, o.bytes);
    }
  }

  /**
   * Which of two equal arrays both values keep: the one with the smaller identity hash, so that
   * arrays only ever move towards fewer of them (short ones are not worth the identity hash).
   */
  static byte[] shared(byte[] a, byte[] b) {
    return a.length < 256 || System.identityHashCode(a) < System.identityHashCode(b) ? a : b;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StarlarkString s && equalsString(s);
  }

  @Override
  public int hashCode() {
    return hash();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(bytes.length + 2);
    repr(sb);
    return sb.toString();
  }
}
