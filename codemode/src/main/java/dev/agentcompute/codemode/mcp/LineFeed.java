package dev.agentcompute.codemode.mcp;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.LinkedBlockingQueue;

/** An input stream of the lines another thread pushes, ending when it calls {@link #end()}. */
final class LineFeed extends InputStream {

  private static final byte[] END = new byte[0];

  private final LinkedBlockingQueue<byte[]> lines = new LinkedBlockingQueue<>();
  private byte[] current = new byte[0];
  private int pos;
  private boolean ended;

  void push(String line) {
    lines.add((line + "\n").getBytes(StandardCharsets.UTF_8));
  }

  void end() {
    lines.add(END);
  }

  @Override
  public int read() {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    if (len == 0) {
      return 0;
    }
    while (pos == current.length) {
      if (ended) {
        return -1;
      }
      try {
        current = lines.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return -1;
      }
      pos = 0;
      if (current == END) {
        ended = true;
      }
    }
    int n = Math.min(len, current.length - pos);
    System.arraycopy(current, pos, b, off, n);
    pos += n;
    return n;
  }
}
