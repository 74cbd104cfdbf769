package dev.agentcompute.incus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class BoundedCaptureTest {

  @Test
  void keepsTheHeadAndTheTailAroundOneMarkerLine() {
    BoundedCapture capture = new BoundedCapture(ExecResult.MAX_CAPTURE);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      text.append(String.format("line %05d%n", i));
    }
    text.append("error: the real failure is here\n");
    byte[] all = text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    capture.write(ByteBuffer.wrap(all));
    String kept = new String(capture.bytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(capture.truncated()).isTrue();
    assertThat(kept).startsWith("line 00000\n").endsWith("error: the real failure is here\n");
    long omitted = all.length - 16 * 1024 - 48 * 1024;
    assertThat(kept)
        .contains(
            "\n[... "
                + omitted
                + " bytes left out here: the output keeps its start and its end ...]\n");
    assertThat(kept.lines().filter(l -> l.contains("bytes left out here"))).hasSize(1);
  }

  @Test
  void theCutNeverSplitsACharacter() {
    BoundedCapture capture = new BoundedCapture(5, 5);
    // "é" is two bytes: the head's fifth byte and the tail's first byte would each split one.
    capture.write(
        ByteBuffer.wrap("aaaaéxxxxxxxxéééé".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    String kept = new String(capture.bytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(kept).doesNotContain("\uFFFD").startsWith("aaaa\n[... ").endsWith("...]\néé");
  }

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
    // Binary output: the cut points may move up to 3 bytes each to character boundaries.
    int marker = BoundedCapture.marker(10L * 1024 * 1024 - 65_536).length;
    assertThat(kept.length)
        .isBetween(ExecResult.MAX_CAPTURE - 6 + marker - 1, ExecResult.MAX_CAPTURE + marker);
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
    byte[] marker = BoundedCapture.marker(1);
    byte[] expected = new byte[1 + marker.length + 3];
    expected[0] = 1;
    System.arraycopy(marker, 0, expected, 1, marker.length);
    expected[expected.length - 3] = 3;
    expected[expected.length - 2] = 4;
    expected[expected.length - 1] = 5;
    assertThat(capture.bytes()).containsExactly(expected);
  }
}
