package dev.agentcompute.starlark.eval;

import java.util.Arrays;

/**
 * A growable byte array for building strings in builtins; charges its growth to the thread's step
 * and allocation budgets so one builtin call cannot build an unbounded value.
 */
final class ByteBuffer {
  private final StarlarkThread thread;
  private byte[] buf = new byte[32];
  private int len;
  private long charged;

  ByteBuffer(StarlarkThread thread) {
    this.thread = thread;
  }

  private void ensure(int extra) throws EvalException {
    long need = (long) len + extra;
    if (need > Operators.MAX_BYTES) {
      throw new EvalException("string too large (" + need + " bytes)");
    }
    if (need > buf.length) {
      int cap = (int) Math.min(Integer.MAX_VALUE - 16, Math.max(need, buf.length * 2L));
      if (thread != null) {
        thread.addByteSteps(cap - charged);
        thread.allocate(cap - charged);
        charged = cap;
      }
      buf = Arrays.copyOf(buf, cap);
    }
  }

  void append(byte[] b) throws EvalException {
    append(b, 0, b.length);
  }

  void append(byte[] b, int from, int to) throws EvalException {
    int n = to - from;
    ensure(n);
    System.arraycopy(b, from, buf, len, n);
    len += n;
  }

  void append(int b) throws EvalException {
    ensure(1);
    buf[len++] = (byte) b;
  }

  void append(String s) throws EvalException {
    append(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  int length() {
    return len;
  }

  StarlarkString toStarlarkString() {
    return StarlarkString.ofBytes(Arrays.copyOf(buf, len));
  }
}
