package dev.agentcompute.codemode.protocol;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Length-prefixed frames: a 4-byte unsigned big-endian payload length, then the payload. */
public final class FrameIO {

  /** Cap of a frame read before any is trusted (the child's first frame): 2^32-1. */
  public static final long UNBOUNDED = 0xFFFF_FFFFL;

  private FrameIO() {}

  /** Reads one frame; returns null on a clean end of stream before the first length byte. */
  public static byte[] read(InputStream in, long cap) throws IOException, ProtocolException {
    int b0 = in.read();
    if (b0 < 0) {
      return null;
    }
    byte[] rest = in.readNBytes(3);
    if (rest.length < 3) {
      throw new ProtocolException("truncated frame length");
    }
    long len =
        ((long) b0 << 24)
            | ((rest[0] & 0xFFL) << 16)
            | ((rest[1] & 0xFFL) << 8)
            | (rest[2] & 0xFFL);
    if (len == 0) {
      throw new ProtocolException("empty frame");
    }
    if (len > cap) {
      throw new ProtocolException("frame of " + len + " bytes exceeds the cap of " + cap);
    }
    if (len > Integer.MAX_VALUE - 16) {
      throw new ProtocolException("frame too large for this runtime");
    }
    byte[] payload = in.readNBytes((int) len);
    if (payload.length != len) {
      throw new EOFException("truncated frame payload");
    }
    return payload;
  }

  public static void write(OutputStream out, String json) throws IOException {
    byte[] payload = json.getBytes(StandardCharsets.UTF_8);
    long len = payload.length;
    out.write(
        new byte[] {(byte) (len >>> 24), (byte) (len >>> 16), (byte) (len >>> 8), (byte) len});
    out.write(payload);
    out.flush();
  }
}
