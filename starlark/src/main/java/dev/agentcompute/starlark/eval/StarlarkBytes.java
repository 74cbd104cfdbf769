package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;
import java.util.Arrays;
import java.util.List;

/** An immutable byte string; {@code b[i]} is a 1-byte bytes value as in starlark-go. */
public final class StarlarkBytes implements Sliceable, HasAttrs, Comparable, Immutable {
  public static final StarlarkBytes EMPTY = new StarlarkBytes(new byte[0]);

  private byte[] bytes; // replaced only by an equal array, see share

  private StarlarkBytes(byte[] bytes) {
    this.bytes = bytes;
  }

  public static StarlarkBytes of(byte[] b) {
    return b.length == 0 ? EMPTY : new StarlarkBytes(b.clone());
  }

  static StarlarkBytes wrap(byte[] b) {
    return b.length == 0 ? EMPTY : new StarlarkBytes(b);
  }

  byte[] bytes() {
    return bytes;
  }

  public byte[] toByteArray() {
    return bytes.clone();
  }

  @Override
  public int len() {
    return bytes.length;
  }

  @Override
  public Value index(int i) {
    return new StarlarkBytes(new byte[] {bytes[i]});
  }

  @Override
  public Value slice(int start, int end, int step) {
    if (step == 1) {
      return start >= end ? EMPTY : wrap(Arrays.copyOfRange(bytes, start, end));
    }
    return wrap(Operators.sliceBytes(bytes, start, end, step));
  }

  @Override
  public String type() {
    return "bytes";
  }

  @Override
  public boolean truth() {
    return bytes.length != 0;
  }

  @Override
  public int hash() {
    return Hashing.ofBytes(bytes);
  }

  /** The value of the {@code hash()} builtin: 32-bit FNV-1a, as starlark-go computes it. */
  public int fnv() {
    int h = 0x811c9dc5;
    for (byte b : bytes) {
      h ^= b & 0xFF;
      h *= 16777619;
    }
    return h;
  }

  @Override
  public void repr(StringBuilder sb) {
    Utf8.quote(sb, bytes, 0, bytes.length, true);
  }

  @Override
  public Value attr(String name) {
    return BytesMethods.attr(this, name);
  }

  @Override
  public List<String> attrNames() {
    return BytesMethods.names();
  }

  @Override
  public boolean compareSameType(Token op, Value y, Comparison cmp) {
    return Operators.threeway(op, compareBytes((StarlarkBytes) y));
  }

  /** As StarlarkString.compareBytes: equal values share one array, so comparing again is free. */
  private int compareBytes(StarlarkBytes o) {
    int c = StarlarkString.compare(bytes, o.bytes);
    if (c == 0 && bytes != o.bytes) {
      bytes = o.bytes = StarlarkString.shared(bytes, o.bytes);
    }
    return c;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StarlarkBytes b && compareBytes(b) == 0;
  }

  @Override
  public int hashCode() {
    return hash();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    repr(sb);
    return sb.toString();
  }
}
