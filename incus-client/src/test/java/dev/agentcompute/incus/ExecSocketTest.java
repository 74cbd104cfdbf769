package dev.agentcompute.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The exec output websocket against a fake incusd: what ends an output stream, and the race that
 * once lost a quick command's whole stdout without any error.
 */
class ExecSocketTest {

  private static final URI URI_ = URI.create("ws://localhost/1.0/operations/op/websocket?s=x");
  private static final byte[] OK = "ok\n".getBytes(StandardCharsets.UTF_8);

  private Path dir;
  private Transport transport;

  @BeforeEach
  void setUp() throws IOException {
    dir = Files.createTempDirectory("exec-socket");
    transport = Transport.unix(dir.resolve("incusd.socket"));
  }

  @AfterEach
  void tearDown() throws IOException {
    transport.close();
    Files.deleteIfExists(dir.resolve("incusd.socket"));
    Files.deleteIfExists(dir);
  }

  /**
   * incusd pings each exec socket as it connects and drops the connection right after the end
   * marker. A pong written after that drop fails with a broken pipe, and Java-WebSocket's write
   * thread then closes the socket before the read thread has read the output still buffered. The
   * gated transport forces that order; an output socket that answers pings loses "ok\n" here.
   */
  @Test
  void outputIsNotLostWhenIncusdHangsUpBeforeTheClientWrites() throws Exception {
    CountDownLatch beforeOutput = new CountDownLatch(1);
    try (FakeExecWebSocket incusd =
        new FakeExecWebSocket(dir.resolve("incusd.socket"), OK, true, beforeOutput)) {
      GatedSockets gated = new GatedSockets(transport.webSocketSockets(), incusd.closed);
      BoundedCapture stdout = new BoundedCapture(ExecResult.MAX_CAPTURE);
      ExecSocket socket = new ExecSocket(URI_, gated, false, "stdout", stdout);
      socket.connect();
      assertThat(gated.firstRead.await(30, TimeUnit.SECONDS)).isTrue();
      beforeOutput.countDown();

      assertThat(socket.awaitClosed(TimeUnit.SECONDS.toNanos(30))).isTrue();
      assertThat(incusd.failure()).isNull();
      assertThat(socket.incomplete()).as(socket.closeDescription()).isNull();
      assertThat(stdout.bytes()).isEqualTo(OK);
    }
  }

  @Test
  void aStreamThatClosesBeforeItsEndMarkerIsIncomplete() throws Exception {
    CountDownLatch now = new CountDownLatch(0);
    try (FakeExecWebSocket incusd =
        new FakeExecWebSocket(dir.resolve("incusd.socket"), OK, false, now)) {
      BoundedCapture stdout = new BoundedCapture(ExecResult.MAX_CAPTURE);
      BoundedCapture stderr = new BoundedCapture(ExecResult.MAX_CAPTURE);
      ExecSocket out = new ExecSocket(URI_, transport.webSocketSockets(), false, "stdout", stdout);
      out.connect();
      assertThat(out.awaitClosed(TimeUnit.SECONDS.toNanos(30))).isTrue();

      assertThat(stdout.bytes()).isEqualTo(OK);
      assertThat(out.incomplete())
          .startsWith("the stream closed before its end marker after 3 bytes (close code 1006");
      // What an exec answers then: an error naming the stream, with the exit code and stderr.
      assertThatThrownBy(
              () -> ExecSession.requireWhole("exec [echo ok] in c1", out, out, 0, stderr))
          .isInstanceOf(IncusException.Failed.class)
          .hasMessageContaining(
              "exec [echo ok] in c1: output incomplete: stdout: the stream closed")
          .hasMessageContaining("the command exited with 0");
    }
  }

  @Test
  void anAttachedStdoutFailsInsteadOfEndingWhenItsMarkerNeverCame() throws Exception {
    CountDownLatch now = new CountDownLatch(0);
    try (FakeExecWebSocket incusd =
        new FakeExecWebSocket(dir.resolve("incusd.socket"), OK, false, now)) {
      StreamPipe pipe = new StreamPipe(1024);
      ExecSocket out = new ExecSocket(URI_, transport.webSocketSockets(), false, "stdout", pipe);
      out.connect();
      assertThat(out.awaitClosed(TimeUnit.SECONDS.toNanos(30))).isTrue();

      assertThat(pipe.readNBytes(3)).isEqualTo(OK);
      assertThatThrownBy(pipe::read)
          .isInstanceOf(IOException.class)
          .hasMessageContaining("the command's stdout is incomplete");
    }
  }

  @Test
  void theEndMarkerEndsAStreamCleanly() throws Exception {
    CountDownLatch now = new CountDownLatch(0);
    try (FakeExecWebSocket incusd =
        new FakeExecWebSocket(dir.resolve("incusd.socket"), OK, true, now)) {
      StreamPipe pipe = new StreamPipe(1024);
      ExecSocket out = new ExecSocket(URI_, transport.webSocketSockets(), false, "stdout", pipe);
      out.connect();
      assertThat(out.awaitClosed(TimeUnit.SECONDS.toNanos(30))).isTrue();

      assertThat(out.incomplete()).isNull();
      assertThat(pipe.readAllBytes()).isEqualTo(OK);
    }
  }
}
