package dev.agentcompute.capabilities.mac;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VncUrlsTest {
  @Test
  void aLoopbackHostBecomesTheMacHost() {
    assertThat(VncUrls.onHost("vnc://:pw@127.0.0.1:5901", "mac-mini.lab"))
        .isEqualTo("vnc://:pw@mac-mini.lab:5901");
    assertThat(VncUrls.onHost("vnc://localhost:5900", "10.0.0.7")).isEqualTo("vnc://10.0.0.7:5900");
    assertThat(VncUrls.onHost("vnc://[::1]:5900", "fd00::7")).isEqualTo("vnc://[fd00::7]:5900");
  }

  @Test
  void anyOtherUrlIsKept() {
    assertThat(VncUrls.onHost("vnc://:pw@192.168.64.5:5901", "mac-mini.lab"))
        .isEqualTo("vnc://:pw@192.168.64.5:5901");
    assertThat(VncUrls.onHost("not a url", "mac-mini.lab")).isEqualTo("not a url");
  }
}
