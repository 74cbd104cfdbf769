package dev.agentcompute.capabilities.screenshots;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/** Hand-built PNGs: a valid header with any dimensions, padded to any size. */
final class TestPngs {
  private TestPngs() {}

  static byte[] png(int width, int height, int totalBytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
    ByteBuffer ihdr = ByteBuffer.allocate(17);
    ihdr.put("IHDR".getBytes()).putInt(width).putInt(height).put(new byte[] {8, 2, 0, 0, 0});
    out.writeBytes(ByteBuffer.allocate(4).putInt(13).array());
    out.writeBytes(ihdr.array());
    CRC32 crc = new CRC32();
    crc.update(ihdr.array());
    out.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    byte[] header = out.toByteArray();
    byte[] png = new byte[Math.max(totalBytes, header.length)];
    System.arraycopy(header, 0, png, 0, header.length);
    return png;
  }

  static byte[] png(int width, int height) {
    return png(width, height, 0);
  }
}
