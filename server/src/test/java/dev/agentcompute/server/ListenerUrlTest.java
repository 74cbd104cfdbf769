package dev.agentcompute.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.server.http.ListenAddress;
import org.junit.jupiter.api.Test;

/** Without screenshots.base_url, screenshot URLs point at the listener that serves them. */
class ListenerUrlTest {
  @Test
  void theUrlIsTheListenersHostWithItsBoundPort() {
    assertThat(ServerRuntime.listenerUrl(ListenAddress.parse("localhost:8080"), 8080))
        .hasToString("http://localhost:8080");
    assertThat(ServerRuntime.listenerUrl(ListenAddress.parse("127.0.0.1:0"), 41234))
        .hasToString("http://127.0.0.1:41234");
    assertThat(ServerRuntime.listenerUrl(ListenAddress.parse("[::1]:0"), 5))
        .hasToString("http://[::1]:5");
  }

  @Test
  void allInterfacesAreReachedAtLoopback() {
    for (String addr : new String[] {":9000", "0.0.0.0:9000", "[::]:9000"}) {
      assertThat(ServerRuntime.listenerUrl(ListenAddress.parse(addr), 9000))
          .hasToString("http://127.0.0.1:9000");
    }
  }
}
