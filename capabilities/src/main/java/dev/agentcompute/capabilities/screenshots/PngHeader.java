package dev.agentcompute.capabilities.screenshots;

import dev.agentcompute.capabilities.model.Errors;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * What the store checks before it publishes bytes as {@code image/png}: the PNG signature, an IHDR
 * chunk first (13 bytes, valid CRC, non-zero dimensions) and the pixel bound. The rest of the file
 * is not decoded: the store serves bytes, it does not render them.
 */
record PngHeader(int width, int height) {
  private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

  /** Signature, IHDR length and type, IHDR data, CRC. */
  private static final int HEADER_BYTES = 8 + 8 + 13 + 4;

  static PngHeader parse(byte[] png) {
    if (png.length < HEADER_BYTES || !Arrays.equals(png, 0, 8, SIGNATURE, 0, 8)) {
      throw Errors.of("screenshot is not a PNG image (bad signature)");
    }
    ByteBuffer buffer = ByteBuffer.wrap(png);
    int length = buffer.getInt(8);
    if (length != 13 || !Arrays.equals(png, 12, 16, "IHDR".getBytes(), 0, 4)) {
      throw Errors.of("screenshot is not a PNG image (IHDR must be the first chunk)");
    }
    CRC32 crc = new CRC32();
    crc.update(png, 12, 4 + 13);
    if ((int) crc.getValue() != buffer.getInt(12 + 4 + 13)) {
      throw Errors.of("screenshot is not a PNG image (IHDR checksum mismatch)");
    }
    long width = Integer.toUnsignedLong(buffer.getInt(16));
    long height = Integer.toUnsignedLong(buffer.getInt(20));
    if (width == 0 || height == 0 || width > Integer.MAX_VALUE || height > Integer.MAX_VALUE) {
      throw Errors.of("screenshot has invalid dimensions %dx%d", width, height);
    }
    if (width * height > ScreenshotStore.MAX_PIXELS) {
      throw Errors.of(
          "screenshot of %dx%d pixels exceeds the %d pixel limit",
          width, height, ScreenshotStore.MAX_PIXELS);
    }
    return new PngHeader((int) width, (int) height);
  }
}
