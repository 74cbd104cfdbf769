package dev.agentcompute.incus;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Keeps the head and the tail of a stream and counts what lies between: a command's error is
 * usually at the end of its output, so the tail matters as much as the head. A stream longer than
 * both reads as head, one marker line saying how many bytes were left out, then tail; the cut
 * points move to UTF-8 character boundaries so neither side starts or ends with half a character.
 */
final class BoundedCapture implements ExecSocket.Sink {

  private final byte[] head;
  private final byte[] tail;
  private int headSize;

  /** Bytes written to the tail ring so far (its write position is this modulo its length). */
  private long tailWritten;

  private long total;

  /** A quarter of {@code limit} for the head, the rest for the tail. */
  BoundedCapture(int limit) {
    this(limit / 4, limit - limit / 4);
  }

  BoundedCapture(int headLimit, int tailLimit) {
    this.head = new byte[headLimit];
    this.tail = new byte[tailLimit];
  }

  @Override
  public synchronized void write(ByteBuffer data) {
    int length = data.remaining();
    total += length;
    int room = head.length - headSize;
    if (room > 0) {
      int take = Math.min(room, length);
      data.get(head, headSize, take);
      headSize += take;
    }
    if (tail.length == 0) {
      data.position(data.limit());
      return;
    }
    // Only the last tail.length bytes of this write can survive in the ring.
    int skip = Math.max(0, data.remaining() - tail.length);
    data.position(data.position() + skip);
    tailWritten += skip;
    while (data.hasRemaining()) {
      int at = (int) (tailWritten % tail.length);
      int take = Math.min(tail.length - at, data.remaining());
      data.get(tail, at, take);
      tailWritten += take;
    }
  }

  /** What was kept: everything when it fitted, else head, marker line and tail. */
  synchronized byte[] bytes() {
    byte[] last = tailBytes();
    if (!truncated()) {
      byte[] all = new byte[headSize + last.length];
      System.arraycopy(head, 0, all, 0, headSize);
      System.arraycopy(last, 0, all, headSize, last.length);
      return all;
    }
    int headEnd = characterBoundaryBefore(head, headSize);
    int tailStart = characterBoundaryAfter(last, 0);
    long omitted = total - headEnd - (last.length - tailStart);
    ByteArrayOutputStream out = new ByteArrayOutputStream(head.length + tail.length + 128);
    out.write(head, 0, headEnd);
    out.writeBytes(marker(omitted));
    out.write(last, tailStart, last.length - tailStart);
    return out.toByteArray();
  }

  /** The line between head and tail; it starts and ends a line of its own. */
  static byte[] marker(long omitted) {
    return ("\n[... "
            + omitted
            + " bytes left out here: the output keeps its start and its end ...]\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** The ring's content in stream order: the bytes written after the head filled. */
  private byte[] tailBytes() {
    long afterHead = total - headSize;
    int n = (int) Math.min(tail.length, Math.min(afterHead, tailWritten));
    byte[] out = new byte[n];
    long start = tailWritten - n;
    for (int i = 0; i < n; i++) {
      out[i] = tail[(int) ((start + i) % tail.length)];
    }
    return out;
  }

  /** The largest end {@code <= end} that does not split a UTF-8 character. */
  private static int characterBoundaryBefore(byte[] b, int end) {
    int i = end;
    // Step back over continuation bytes to the lead byte of the last character.
    while (i > 0 && i > end - 4 && (b[i - 1] & 0xC0) == 0x80) {
      i--;
    }
    if (i > 0 && (b[i - 1] & 0x80) != 0) {
      int lead = b[i - 1] & 0xFF;
      int need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
      if (end - (i - 1) < need) {
        return i - 1;
      }
    }
    return end;
  }

  /** The first index {@code >= start} that is not a UTF-8 continuation byte (at most 3 on). */
  private static int characterBoundaryAfter(byte[] b, int start) {
    int i = start;
    while (i < b.length && i < start + 3 && (b[i] & 0xC0) == 0x80) {
      i++;
    }
    return i;
  }

  synchronized boolean truncated() {
    return total > head.length + tail.length;
  }

  synchronized long total() {
    return total;
  }
}
