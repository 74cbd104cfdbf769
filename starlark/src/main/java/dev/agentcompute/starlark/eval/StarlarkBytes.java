package dev.agentcompute.starlark.eval;

import dev.agentcompute.starlark.syntax.Token;
import java.util.Arrays;
import java.util.List;

/** An immutable byte string; {@code b[i]} is a 1-byte bytes value as in starlark-go. */
public final class StarlarkBytes implements Sliceable, HasAttrs, Comparable, Immutable {
  public static final StarlarkBytes EMPTY = new StarlarkBytes(new byte[0]);

  private final byte[] bytes;

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

  /** 32-bit FNV-1a, which is also what {@code hash(b)} returns. */
  @Override
  public int hash() {
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
  public boolean compareSameType(Token op, Value y, int depth) {
    return Operators.threeway(op, Arrays.compareUnsigned(bytes, ((StarlarkBytes) y).bytes));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StarlarkBytes b && Arrays.equals(bytes, b.bytes);
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
