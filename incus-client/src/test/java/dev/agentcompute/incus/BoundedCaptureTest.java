package dev.agentcompute.incus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class BoundedCaptureTest {

  @Test
  void keepsTheFirstBytesAndCountsTheRest() {
    BoundedCapture capture = new BoundedCapture(ExecResult.MAX_CAPTURE);
    byte[] chunk = new byte[128 * 1024];
    for (int i = 0; i < chunk.length; i++) {
      chunk[i] = (byte) i;
    }
    for (int i = 0; i < 80; i++) { // 10 MiB
      capture.write(ByteBuffer.wrap(chunk));
    }
    assertThat(capture.total()).isEqualTo(10L * 1024 * 1024);
    assertThat(capture.truncated()).isTrue();
    byte[] kept = capture.bytes();
    assertThat(kept).hasSize(ExecResult.MAX_CAPTURE);
    assertThat(kept[1000]).isEqualTo((byte) 1000);
  }

  @Test
  void exactlyTheLimitIsNotTruncated() {
    BoundedCapture capture = new BoundedCapture(4);
    capture.write(ByteBuffer.wrap(new byte[] {1, 2}));
    capture.write(ByteBuffer.wrap(new byte[] {3, 4}));
    assertThat(capture.truncated()).isFalse();
    assertThat(capture.bytes()).containsExactly(1, 2, 3, 4);
    capture.write(ByteBuffer.wrap(new byte[] {5}));
    assertThat(capture.truncated()).isTrue();
    assertThat(capture.bytes()).containsExactly(1, 2, 3, 4);
  }
}
