package dev.agentcompute.starlark.eval;

/**
 * The iterables returned by {@code s.elems()}, {@code s.elem_ords()}, {@code s.codepoints()},
 * {@code s.codepoint_ords()} and {@code b.elems()}. Element views are also indexable, as in Go.
 */
class StringIterable implements Iterable, Immutable {
  enum Kind {
    ELEMS("string.elems", "elems"),
    ELEM_ORDS("string.elems", "elem_ords"),
    CODEPOINTS("string.codepoints", "codepoints"),
    CODEPOINT_ORDS("string.codepoints", "codepoint_ords"),
    BYTE_ELEMS("bytes.elems", "elems");

    final String type;
    final String method;

    Kind(String type, String method) {
      this.type = type;
      this.method = method;
    }
  }

  private final Value owner; // StarlarkString or StarlarkBytes
  final byte[] bytes;
  final Kind kind;

  StringIterable(StarlarkString s, Kind kind) {
    this.owner = s;
    this.bytes = s.bytes();
    this.kind = kind;
  }

  StringIterable(StarlarkBytes b) {
    this.owner = b;
    this.bytes = b.bytes();
    this.kind = Kind.BYTE_ELEMS;
  }

  /** The view of a string's bytes ({@code elems}, {@code elem_ords}), which is also indexable. */
  static final class Elems extends StringIterable implements Indexable {
    Elems(StarlarkString s, Kind kind) {
      super(s, kind);
    }

    @Override
    public int len() {
      return bytes.length;
    }

    @Override
    public Value index(int i) {
      return kind == Kind.ELEMS ? StarlarkString.ofByte(bytes[i]) : StarlarkInt.of(bytes[i] & 0xFF);
    }
  }

  /** A view of {@code s} of the given kind. */
  static StringIterable of(StarlarkString s, Kind kind) {
    return kind == Kind.ELEMS || kind == Kind.ELEM_ORDS
        ? new Elems(s, kind)
        : new StringIterable(s, kind);
  }

  @Override
  public Iterator iterate() {
    return new Iterator() {
      private int i;

      @Override
      public Value next() {
        if (i >= bytes.length) {
          return null;
        }
        switch (kind) {
          case ELEMS:
            return StarlarkString.ofByte(bytes[i++]);
          case ELEM_ORDS:
          case BYTE_ELEMS:
            return StarlarkInt.of(bytes[i++] & 0xFF);
          default:
            long d = Utf8.decode(bytes, i, bytes.length);
            int w = Utf8.width(d);
            int r = Utf8.rune(d);
            Value v;
            if (kind == Kind.CODEPOINT_ORDS) {
              v = StarlarkInt.of(r);
            } else if (r == Utf8.RUNE_ERROR) {
              v = StarlarkString.ofBytes(Utf8.encode(r));
            } else {
              v = StarlarkString.ofBytes(bytes, i, i + w);
            }
            i += w;
            return v;
        }
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public String type() {
    return kind.type;
  }

  @Override
  public boolean truth() {
    return true;
  }

  @Override
  public int hash() throws EvalException {
    throw new EvalException("unhashable: " + kind.type);
  }

  @Override
  public void repr(StringBuilder sb) {
    owner.repr(sb);
    sb.append('.').append(kind.method).append("()");
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    repr(sb);
    return sb.toString();
  }
}
