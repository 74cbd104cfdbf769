package dev.agentcompute.incus;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Keeps the first {@code limit} bytes written to it and counts (but drops) the rest. Thread-safe.
 */
final class BoundedCapture implements ExecSocket.Sink {

  private final byte[] kept;
  private int size;
  private long total;

  BoundedCapture(int limit) {
    this.kept = new byte[limit];
  }

  @Override
  public synchronized void write(ByteBuffer data) {
    int length = data.remaining();
    total += length;
    int room = kept.length - size;
    if (room > 0) {
      int take = Math.min(room, length);
      data.get(kept, size, take);
      size += take;
    }
  }

  synchronized byte[] bytes() {
    return Arrays.copyOf(kept, size);
  }

  synchronized boolean truncated() {
    return total > kept.length;
  }

  synchronized long total() {
    return total;
  }
}
