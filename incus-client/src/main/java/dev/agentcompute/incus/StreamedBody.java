package dev.agentcompute.incus;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.AbstractHttpEntity;

/**
 * A request body read from a stream once, in large pieces, read ahead by a thread of its own while
 * the previous pieces are written. HttpClient's {@code InputStreamEntity} copies 4 KiB at a time on
 * the caller's thread, so a source that is itself a network stream (an upload arriving over HTTP)
 * and the Unix socket take turns instead of overlapping: a third of the throughput of {@code incus
 * file push}. At most {@link #DEPTH} + 2 pieces are in memory per transfer.
 */
final class StreamedBody extends AbstractHttpEntity {
  static final int PIECE = 512 * 1024;
  static final int DEPTH = 3;
  private static final Object END = new Object();

  private final InputStream content;
  private final long length;

  StreamedBody(InputStream content, long length) {
    super(ContentType.APPLICATION_OCTET_STREAM, null, length < 0);
    this.content = content;
    this.length = length;
  }

  @Override
  public long getContentLength() {
    return length;
  }

  @Override
  public InputStream getContent() {
    return content;
  }

  @Override
  public boolean isRepeatable() {
    return false;
  }

  @Override
  public boolean isStreaming() {
    return true;
  }

  @Override
  public void writeTo(OutputStream out) throws IOException {
    BlockingQueue<Object> ready = new ArrayBlockingQueue<>(DEPTH);
    Thread reader =
        Thread.ofVirtual().name("incus-upload-read-ahead").start(() -> readAhead(ready));
    try {
      while (true) {
        Object next = ready.take();
        if (next == END) {
          break;
        }
        if (next instanceof IOException e) {
          throw e;
        }
        if (next instanceof RuntimeException e) {
          throw e;
        }
        byte[] piece = (byte[]) next;
        out.write(piece, 0, piece.length);
      }
      out.flush();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("upload interrupted");
    } finally {
      // A failed write leaves the reader blocked on a full queue or on its source: stop it.
      reader.interrupt();
    }
  }

  private void readAhead(BlockingQueue<Object> ready) {
    try {
      long left = length;
      while (length < 0 || left > 0) {
        int want = length < 0 ? PIECE : (int) Math.min(PIECE, left);
        byte[] piece = new byte[want];
        // Whole pieces: a source that hands out a few KiB per read would otherwise set the pace.
        int n = content.readNBytes(piece, 0, want);
        if (n <= 0) {
          break;
        }
        ready.put(n == want ? piece : Arrays.copyOf(piece, n));
        left -= n;
        if (n < want) {
          break;
        }
      }
      ready.put(END);
    } catch (IOException | RuntimeException e) {
      try {
        ready.put(e);
      } catch (InterruptedException stopped) {
        // The writer gave up first.
      }
    } catch (InterruptedException e) {
      // The writer gave up: nothing is waiting for more.
    }
  }

  @Override
  public void close() throws IOException {
    content.close();
  }
}
