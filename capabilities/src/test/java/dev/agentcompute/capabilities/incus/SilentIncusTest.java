package dev.agentcompute.capabilities.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.incus.IncusClient;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An Incus that accepts the connection and never answers (a frozen incusd): the failure an agent
 * sees says that Incus did not answer, within how long, and that retrying is the fix, and nothing
 * else of the request.
 */
class SilentIncusTest {

  @Test
  void aSilentIncusIsNamedWithItsWait() throws Exception {
    Path dir = Files.createTempDirectory("silent-incus");
    Path socket = dir.resolve("unix.socket");
    List<SocketChannel> held = new ArrayList<>();
    try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      server.bind(UnixDomainSocketAddress.of(socket));
      Thread acceptor =
          Thread.ofVirtual()
              .start(
                  () -> {
                    try {
                      while (true) {
                        held.add(server.accept());
                      }
                    } catch (java.io.IOException e) {
                      // closed at the end of the test
                    }
                  });
      try (IncusClient client =
          IncusClient.unixSocket(socket).requestTimeout(Duration.ofSeconds(1)).build()) {
        assertThatThrownBy(() -> IncusFailures.translated(() -> client.projects().list()))
            .isInstanceOfSatisfying(
                BackendException.class,
                e -> {
                  assertThat(e.kind()).isEqualTo(BackendException.Kind.UNAVAILABLE);
                  assertThat(e.agentText())
                      .contains("Incus did not answer within 1 s; retry later");
                });
      } finally {
        acceptor.interrupt();
      }
    } finally {
      for (SocketChannel c : held) {
        c.close();
      }
      Files.deleteIfExists(socket);
      Files.deleteIfExists(dir);
    }
  }
}
