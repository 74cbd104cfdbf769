package dev.agentcompute.incus;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;

/**
 * An attached stream's stdout: the websocket's read thread writes, the caller reads. The buffer is
 * bounded and a full one blocks the writer, so a caller that reads slowly slows the command down
 * (through the websocket's TCP window) instead of filling memory. {@link #end} is the socket's
 * close (the reader sees end of stream once the buffer is drained); {@link #close} is the reader
 * giving up (what is buffered or still arriving is dropped and the writer is never blocked again).
 * A socket that closed before its end marker makes the reader fail once the buffer is drained,
 * instead of seeing an end of stream that would pass incomplete output for complete.
 */
final class StreamPipe extends InputStream implements ExecSocket.Sink {

  private final byte[] ring;
  private int head;
  private int size;
  private boolean ended;
  private String lost;
  private boolean closed;

  StreamPipe(int capacity) {
    this.ring = new byte[capacity];
  }

  @Override
  public synchronized void write(ByteBuffer data) {
    while (data.hasRemaining()) {
      while (size == ring.length && !closed) {
        try {
          wait();
        } catch (InterruptedException e) {
          // The websocket library's thread is being stopped: the rest is dropped with it.
          Thread.currentThread().interrupt();
          return;
        }
      }
      if (closed) {
        return;
      }
      int tail = (head + size) % ring.length;
      int take = Math.min(data.remaining(), Math.min(ring.length - size, ring.length - tail));
      data.get(ring, tail, take);
      size += take;
      notifyAll();
    }
  }

  @Override
  public synchronized void end(String lost) {
    ended = true;
    this.lost = lost;
    notifyAll();
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public synchronized int read(byte[] buffer, int offset, int length) throws IOException {
    java.util.Objects.checkFromIndexSize(offset, length, buffer.length);
    if (length == 0) {
      return 0;
    }
    while (size == 0 && !ended && !closed) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while reading the command's output");
      }
    }
    if (closed) {
      throw new IOException("the command's output stream is closed");
    }
    if (size == 0) {
      if (lost != null) {
        // Never a clean end of stream for output that did not all arrive.
        throw new IOException("the command's stdout is incomplete: " + lost);
      }
      return -1;
    }
    int take = Math.min(length, Math.min(size, ring.length - head));
    System.arraycopy(ring, head, buffer, offset, take);
    head = (head + take) % ring.length;
    size -= take;
    notifyAll();
    return take;
  }

  @Override
  public synchronized int available() {
    return closed ? 0 : size;
  }

  @Override
  public synchronized void close() {
    closed = true;
    size = 0;
    notifyAll();
  }
}
