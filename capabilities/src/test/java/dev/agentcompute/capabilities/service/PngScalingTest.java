package dev.agentcompute.capabilities.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.model.AgentFacingException;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** Scaling decodes a guest's PNG in the server's heap only within a bound. */
class PngScalingTest {

  private static byte[] png(int width, int height) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageIO.write(new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB), "png", out);
    return out.toByteArray();
  }

  @Test
  void aScreenshotWithinTheBoundIsScaled() throws IOException {
    PngScaling.Png fitted = PngScaling.fit(png(400, 200), 400, 200, 100);

    assertThat(fitted.width()).isEqualTo(100);
    assertThat(fitted.height()).isEqualTo(50);
  }

  @Test
  void aScreenshotWhoseHeaderClaimsTooManyPixelsIsRefusedBeforeDecoding() throws IOException {
    // A 1x1 image whose (IHDR-derived) dimensions say 10000x10000: decoding it would be harmless,
    // so the refusal shows the check comes first, from the dimensions alone.
    byte[] tiny = png(1, 1);

    assertThatThrownBy(() -> PngScaling.fit(tiny, 10_000, 10_000, 1000))
        .isInstanceOf(AgentFacingException.class)
        .hasMessageContaining("10000x10000 pixels is too large to scale")
        .hasMessageContaining("limit " + PngScaling.MAX_DECODE_PIXELS + " pixels");
  }
}
