package dev.agentcompute.lume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Lume API through the Mac host's SSH connection, one direct-tcpip channel per request. */
class LumeClientTest {

  @TempDir Path dir;
  private MacHostDouble mac;
  private LocalLumeServer lume;
  private MacHost host;
  private LumeClient client;

  @BeforeAll
  static void banner() {
    System.out.println(MacHostDouble.BANNER);
  }

  @BeforeEach
  void start() throws Exception {
    mac = new MacHostDouble(dir);
    lume = mac.lume;
    lume.addVm("ac-seed-macos", 4, 8L << 30, 100L << 30);
    host = MacHost.of(mac.config());
    client = host.api();
  }

  @AfterEach
  void stop() throws Exception {
    host.close();
    mac.close();
  }

  @Test
  void getVmReadsLumesShape() throws Exception {
    LumeVm vm = client.getVm("ac-seed-macos");
    assertThat(vm.name()).isEqualTo("ac-seed-macos");
    assertThat(vm.cpuCount()).isEqualTo(4);
    assertThat(vm.memorySize()).isEqualTo(8L << 30);
    assertThat(vm.diskSize().total()).isEqualTo(100L << 30);
    assertThat(vm.stopped()).isTrue();
    assertThat(vm.ip()).isEmpty();
    assertThat(vm.vnc()).isEmpty();
  }

  @Test
  void cloneResizeRunStopDeleteLifecycle() throws Exception {
    client.cloneVm("ac-seed-macos", "ac-demo-web");
    client.setResources("ac-demo-web", new VmResources(6, 12288, OptionalLong.of(120)));
    LumeVm running = client.run("ac-demo-web", LumeClient.RunOptions.HEADLESS);
    assertThat(running.running()).isTrue();
    assertThat(running.cpuCount()).isEqualTo(6);
    assertThat(running.memorySize()).isEqualTo(12288L << 20);
    assertThat(running.diskSize().total()).isEqualTo(120L << 30);
    assertThat(running.ip()).hasValueSatisfying(ip -> assertThat(ip).startsWith("192.168.64."));

    assertThat(client.stop("ac-demo-web", Duration.ofSeconds(5)).stopped()).isTrue();
    client.delete("ac-demo-web");
    assertThat(lume.vms).doesNotContainKey("ac-demo-web");

    assertThat(lume.requests)
        .containsSubsequence(
            "POST /lume/vms/clone",
            "PATCH /lume/vms/ac-demo-web",
            "POST /lume/vms/ac-demo-web/run",
            "GET /lume/vms/ac-demo-web",
            "POST /lume/vms/ac-demo-web/stop",
            "DELETE /lume/vms/ac-demo-web");
  }

  @Test
  void requestBodiesMatchLumesApi() throws Exception {
    client.cloneVm("ac-seed-macos", "ac-demo-db");
    client.setResources("ac-demo-db", new VmResources(2, 4096, OptionalLong.empty()));
    client.run("ac-demo-db", LumeClient.RunOptions.HEADLESS);
    assertThat(lume.bodies.get(0).get("name").asString()).isEqualTo("ac-seed-macos");
    assertThat(lume.bodies.get(0).get("newName").asString()).isEqualTo("ac-demo-db");
    assertThat(lume.bodies.get(0).propertyNames()).containsExactly("name", "newName");
    // The disk is grown only on request: Lume refuses an equal or smaller size.
    assertThat(lume.bodies.get(1).toString()).isEqualTo("{\"cpu\":2,\"memory\":\"4096MB\"}");
    assertThat(lume.bodies.get(2).get("noDisplay").asBoolean()).isTrue();
    assertThat(lume.bodies.get(2).get("vnc").asString()).isEqualTo("disabled");
  }

  @Test
  void missingVmIsNotFoundFromLumesHttp400() {
    assertThatThrownBy(() -> client.getVm("nope"))
        .isInstanceOf(LumeException.NotFound.class)
        .hasMessage("lume api GET /lume/vms/nope: 400 Virtual machine not found: nope");
  }

  @Test
  void deletingAMissingVmIsNotAnError() throws Exception {
    client.delete("already-gone");
    assertThat(lume.requests).containsExactly("DELETE /lume/vms/already-gone");
  }

  @Test
  void deleteAcceptsLumesEmptyBody() throws Exception {
    client.cloneVm("ac-seed-macos", "ac-demo-tmp");
    client.delete("ac-demo-tmp");
    assertThat(lume.vms).doesNotContainKey("ac-demo-tmp");
  }

  @Test
  void runIsAcceptedBeforeTheVmStartsAndWaitsForRunning() throws Exception {
    lume.bootDelayMillis = 1200;
    client.cloneVm("ac-seed-macos", "ac-demo-slow");
    LumeVm vm = client.run("ac-demo-slow", LumeClient.RunOptions.HEADLESS);
    assertThat(vm.running()).isTrue();
    assertThat(lume.requests.stream().filter(r -> r.equals("GET /lume/vms/ac-demo-slow")).count())
        .isGreaterThan(1);
  }

  @Test
  void eachRequestOpensItsOwnChannelOnOneConnection() throws Exception {
    client.getVm("ac-seed-macos");
    client.getVm("ac-seed-macos");
    client.getVm("ac-seed-macos");
    assertThat(lume.requests).hasSize(3);
    assertThat(mac.sessionsOpened()).isEqualTo(1);
  }

  @Test
  void notFoundTextInAnotherStatusIsStillNotFound() {
    lume.failWith = 500;
    lume.failMessage = "no such virtual machine";
    assertThatThrownBy(() -> client.getVm("ghost")).isInstanceOf(LumeException.NotFound.class);
  }

  @Test
  void gatewayErrorsAreUnavailable() {
    lume.failWith = 503;
    lume.failMessage = "daemon restarting";
    assertThatThrownBy(() -> client.getVm("ac-seed-macos"))
        .isInstanceOf(LumeException.Unavailable.class)
        .hasMessage("lume api GET /lume/vms/ac-seed-macos: 503 daemon restarting");
  }

  @Test
  void otherErrorsCarryStatusAndTruncatedMessage() {
    lume.failWith = 409;
    lume.failMessage = "é".repeat(400); // 800 bytes of UTF-8
    assertThatThrownBy(() -> client.cloneVm("a", "b"))
        .isExactlyInstanceOf(LumeException.class)
        .satisfies(
            e -> {
              assertThat(((LumeException) e).status()).isEqualTo(409);
              String message =
                  e.getMessage().substring("lume api POST /lume/vms/clone: 409 ".length());
              assertThat(message).isEqualTo("é".repeat(256));
            });
  }

  @Test
  void unreachableHostIsUnavailable() throws Exception {
    mac.stop();
    assertThatThrownBy(() -> client.getVm("x"))
        .isInstanceOf(LumeException.Unavailable.class)
        .hasMessageContaining("ssh agentcompute@127.0.0.1:" + mac.port());
  }

  @Test
  void responsesOverEightMibAreRefused() {
    lume.failWith = 500;
    lume.failMessage = "x".repeat((8 << 20) + 10);
    assertThatThrownBy(() -> client.getVm("ac-seed-macos"))
        .isExactlyInstanceOf(LumeException.class)
        .hasMessageContaining("response exceeds 8388608 bytes");
  }

  @Test
  void vncPolicyProbeAcceptsTheRefusal() throws Exception {
    client.probeVncPolicy();
    assertThat(lume.requests.getFirst())
        .matches("POST /lume/vms/ac-vnc-policy-probe-[0-9a-f]{8}/run");
  }

  @Test
  void vncPolicyProbeFailsOnAStockLumeThatIgnoresTheOption() {
    lume.stockVnc = true;
    assertThatThrownBy(() -> client.probeVncPolicy())
        .isExactlyInstanceOf(LumeException.class)
        .hasMessageStartingWith("lume on this host cannot start guests with VNC disabled");
  }

  @Test
  void resourcesMustBePositive() {
    assertThatThrownBy(() -> new VmResources(0, 4096, OptionalLong.empty()))
        .hasMessage("cpu, memory, and disk size must be positive");
  }
}
