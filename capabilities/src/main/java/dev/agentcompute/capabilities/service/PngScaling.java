package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.Errors;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import javax.imageio.ImageIO;

/** {@code desktop.screenshot(max_dimension=N)}: shrinks a PNG so its longer side is at most N. */
final class PngScaling {
  /**
   * The most pixels the server decodes to scale one screenshot. Decoded, a pixel takes 4 bytes, so
   * one image at the bound is 32 MiB (plus its smaller copy), and the 8 screenshots that may be
   * scaled at once hold under 300 MiB: a 1 GiB heap (a 4 GiB host's default) survives them. A
   * 3840x2160 screen (8.3 Mpx) fits; the store's own 32 Mpx bound would have been 128 MiB each.
   */
  static final long MAX_DECODE_PIXELS = 8L * 1024 * 1024;

  private PngScaling() {}

  /** A PNG with its dimensions. */
  record Png(byte[] bytes, int width, int height) {}

  /** {@code png} unchanged when it fits (or {@code maxDimension} is 0), else a smaller copy. */
  static Png fit(byte[] png, int width, int height, int maxDimension) {
    if (maxDimension <= 0 || Math.max(width, height) <= maxDimension) {
      return new Png(png, width, height);
    }
    // The dimensions come from the PNG's IHDR, read before anything is decoded.
    if ((long) width * height > MAX_DECODE_PIXELS) {
      throw Errors.of(
          "screenshot of %dx%d pixels is too large to scale in the server (limit %d pixels);"
              + " capture a smaller window or omit max_dimension",
          width, height, MAX_DECODE_PIXELS);
    }
    try {
      BufferedImage source = ImageIO.read(new ByteArrayInputStream(png));
      if (source == null) {
        throw new BackendException(
            BackendException.Kind.FAILED, "screenshot PNG cannot be decoded");
      }
      double factor = (double) maxDimension / Math.max(width, height);
      int w = Math.max(1, (int) Math.round(width * factor));
      int h = Math.max(1, (int) Math.round(height * factor));
      BufferedImage target = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
      Graphics2D g = target.createGraphics();
      try {
        g.setRenderingHint(
            RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.drawImage(source, 0, 0, w, h, null);
      } finally {
        g.dispose();
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ImageIO.write(target, "png", out);
      return new Png(out.toByteArray(), w, h);
    } catch (IOException e) {
      throw new BackendException(
          BackendException.Kind.FAILED, "screenshot PNG cannot be decoded: " + e.getMessage(), e);
    }
  }
}
