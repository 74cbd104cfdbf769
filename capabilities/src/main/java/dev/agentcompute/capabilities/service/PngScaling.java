package dev.agentcompute.capabilities.service;

import dev.agentcompute.capabilities.model.BackendException;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import javax.imageio.ImageIO;

/** {@code desktop.screenshot(max_dimension=N)}: shrinks a PNG so its longer side is at most N. */
final class PngScaling {
  private PngScaling() {}

  /** A PNG with its dimensions. */
  record Png(byte[] bytes, int width, int height) {}

  /** {@code png} unchanged when it fits (or {@code maxDimension} is 0), else a smaller copy. */
  static Png fit(byte[] png, int width, int height, int maxDimension) {
    if (maxDimension <= 0 || Math.max(width, height) <= maxDimension) {
      return new Png(png, width, height);
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
