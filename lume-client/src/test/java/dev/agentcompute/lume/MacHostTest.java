package dev.agentcompute.lume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Mac host over real SSH: the connection, host scripts, guests through the host. */
class MacHostTest {
  private static final String SEED = GuestDouble.SEED;

  @TempDir Path dir;
  private MacHostDouble mac;
  private MacHost host;

  @BeforeAll
  static void banner() {
    System.out.println(MacHostDouble.BANNER);
  }

  @BeforeEach
  void start() throws Exception {
    mac = new MacHostDouble(dir);
    mac.lume.addVm(SEED, 4, 8L << 30, 100L << 30);
    host = MacHost.of(mac.config());
  }

  @AfterEach
  void stop() throws Exception {
    host.close();
    mac.close();
  }

  @Test
  void hostScriptsRunUnderSetEu() throws Exception {
    assertThat(host.runScript("echo \"$HOME\"", Duration.ofSeconds(10)).strip())
        .isEqualTo(mac.home.toString());
    assertThatThrownBy(() -> host.runScript("echo \"$UNSET_VARIABLE\"", Duration.ofSeconds(10)))
        .hasMessageStartingWith("host script failed (exit 2)")
        .hasMessageContaining("UNSET_VARIABLE");
  }

  @Test
  void aFailedStepStopsTheScriptAndItsStderrIsReported() {
    assertThatThrownBy(() -> host.runScript("false\necho not reached", Duration.ofSeconds(10)))
        .hasMessage("host script failed (exit 1)");
    assertThatThrownBy(() -> host.runScript("echo boom >&2; exit 3", Duration.ofSeconds(10)))
        .hasMessage("host script failed (exit 3): boom");
  }

  @Test
  void hostScriptOutputOverOneMibIsAnError() {
    assertThatThrownBy(() -> host.runScript("yes", Duration.ofSeconds(30)))
        .hasMessage("host script output exceeds 1048576 bytes on a stream");
    assertThatThrownBy(() -> host.runScript("yes >&2", Duration.ofSeconds(30)))
        .hasMessage("host script output exceeds 1048576 bytes on a stream");
  }

  @Test
  void cancellingAHostScriptKillsTheRemoteProcess() throws Exception {
    Path marker = mac.home.resolve("pid");
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread caller =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    host.runScript("echo $$ > pid; exec sleep 60", Duration.ofSeconds(90));
                  } catch (Throwable e) {
                    failure.set(e);
                  }
                });
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!Files.exists(marker) || Files.readString(marker).isBlank()) {
      assertThat(System.nanoTime()).isLessThan(deadline);
      Thread.sleep(50);
    }
    long pid = Long.parseLong(Files.readString(marker).strip());
    caller.interrupt();
    caller.join(10_000);
    assertThat(failure.get()).isInstanceOf(InterruptedException.class);
    deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
      assertThat(System.nanoTime()).as("remote sleep was killed").isLessThan(deadline);
      Thread.sleep(50);
    }
    // The double records the signal before it kills, so a dead process means it was recorded.
    assertThat(mac.commands).contains("signal KILL");
  }

  @Test
  void aHostKeyNotInKnownHostsIsRefused() throws Exception {
    mac.replaceKnownHostKey();
    assertThatThrownBy(() -> host.checkReachable())
        .isInstanceOf(LumeException.Unavailable.class)
        .hasMessageContaining("host key mismatch for 127.0.0.1")
        .hasMessageContaining(mac.knownHostsFile().toString());
  }

  @Test
  void theConnectionIsReusedAndDialledAgainAfterTheHostComesBack() throws Exception {
    host.inventory();
    host.api().getVm(SEED);
    assertThat(mac.sessionsOpened()).isEqualTo(1);
    mac.stop();
    assertThatThrownBy(() -> host.inventory()).isInstanceOf(LumeException.Unavailable.class);
    mac.start();
    assertThat(host.inventory()).extracting(LumeVm::name).containsExactly(SEED);
    assertThat(mac.sessionsOpened()).isEqualTo(2);
  }

  @Test
  void inventoryListsEveryVmWithItsStatus() throws Exception {
    mac.lume.addVm("someone-elses-vm", 2, 4L << 30, 60L << 30);
    List<LumeVm> vms = host.inventory();
    assertThat(vms).extracting(LumeVm::name).containsExactlyInAnyOrder(SEED, "someone-elses-vm");
    assertThat(vms).allMatch(LumeVm::stopped);
    assertThat(mac.commands.getLast()).contains(mac.tools().lume()).contains(" ls --format json");
  }

  @Test
  void macAddressComesFromTheVmsConfig() throws Exception {
    assertThat(host.macAddress(SEED)).isEqualTo(mac.lume.configValue(SEED, "macAddress"));
  }

  @Test
  void pinningCopiesTheSeedsMachineIdentifierIntoTheClone() throws Exception {
    host.api().cloneVm(SEED, "ac-demo-web");
    assertThat(mac.lume.configValue("ac-demo-web", "machineIdentifier"))
        .isNotEqualTo(mac.lume.configValue(SEED, "machineIdentifier"));
    host.pinMachineIdentifier(SEED, "ac-demo-web");
    assertThat(mac.lume.configValue("ac-demo-web", "machineIdentifier"))
        .isEqualTo(mac.lume.configValue(SEED, "machineIdentifier"));
    try (var files = Files.list(mac.home.resolve(".lume/ac-demo-web"))) {
      assertThat(files).extracting(p -> p.getFileName().toString()).containsExactly("config.json");
    }
  }

  @Test
  void theServeLogCursorSeesOnlyNewVmLimitFailures() throws Exception {
    mac.lume.otherAccountsRunning = 2;
    mac.lume.bootDelayMillis = 50;
    host.api().cloneVm(SEED, "ac-demo-one");
    ServeLogs.Cursor before = host.serveLogCursor();
    LumeVm vm =
        host.api().run("ac-demo-one", LumeClient.RunOptions.HEADLESS, Duration.ofSeconds(1));
    assertThat(vm.stopped()).isTrue();
    assertThat(host.vmLimitLoggedSince(before)).isTrue();
    assertThat(host.vmLimitLoggedSince(host.serveLogCursor())).isFalse();
  }

  @Test
  void guestExecRunsTheExactCommandLineAsLume() throws Exception {
    String line =
        GuestCommand.build(
            List.of("sh", "-c", "echo \"$GREETING it's\"; pwd"),
            Map.of("GREETING", "hi", "A_FIRST", "x y"),
            "/tmp",
            "lume");
    assertThat(line)
        .isEqualTo(
            "cd '/tmp' && exec env A_FIRST='x y' GREETING='hi' 'sh' '-c' 'echo \"$GREETING"
                + " it'\"'\"'s\"; pwd'");
    try (Guest guest = host.guest("192.168.64.10", SEED, mac.guest.keyFile())) {
      Guest.Result r = guest.exec(line, null, 65536, null);
      assertThat(r.exitCode()).as(new String(r.stderr(), StandardCharsets.UTF_8)).isZero();
      assertThat(r.stdoutText()).isEqualTo("hi it's\n/tmp\n");
    }
    assertThat(mac.guest.commands).containsExactly(line);
  }

  @Test
  void guestExecPassesStdinExitCodesAndTruncates() throws Exception {
    try (Guest guest = host.guest("192.168.64.10", SEED, mac.guest.keyFile())) {
      Guest.Result echo =
          guest.exec("exec cat", "piped".getBytes(StandardCharsets.UTF_8), 100, null);
      assertThat(echo.stdoutText()).isEqualTo("piped");
      assertThat(guest.exec("exit 7", null, 100, null).exitCode()).isEqualTo(7);
      Guest.Result big = guest.exec("head -c 5000 /dev/zero; echo err >&2", null, 1000, null);
      assertThat(big.stdout()).hasSize(1000);
      assertThat(big.stdoutTruncated()).isTrue();
      assertThat(big.stderrTruncated()).isFalse();
      Guest.Result slow =
          guest.exec("echo started; exec sleep 30", null, 100, Duration.ofMillis(500));
      assertThat(slow.timedOut()).isTrue();
      assertThat(slow.exitCode()).isEqualTo(-1);
      assertThat(slow.stdoutText()).isEqualTo("started\n");
    }
  }

  @Test
  void guestFilesGoOverSftp() throws Exception {
    String path = mac.guest.home.resolve("note.txt").toString();
    try (Guest guest = host.guest("192.168.64.10", SEED, mac.guest.keyFile())) {
      guest.writeFile(path, "hello".getBytes(StandardCharsets.UTF_8), 0640);
      assertThat(Files.readString(Path.of(path))).isEqualTo("hello");
      assertThat(
              java.nio.file.attribute.PosixFilePermissions.toString(
                  Files.getPosixFilePermissions(Path.of(path))))
          .isEqualTo("rw-r-----");
      assertThat(guest.readFile(path, 3)).asString().isEqualTo("hell");
      assertThatThrownBy(() -> guest.readFile(mac.guest.home.toString(), 10))
          .hasMessage("path \"" + mac.guest.home + "\" is not a regular file");
      assertThatThrownBy(() -> guest.readFile(path + ".missing", 10))
          .isInstanceOf(LumeException.NotFound.class);
    }
  }

  @Test
  void aGuestHostKeyNotListedUnderTheSeedIsRefused() throws Exception {
    mac.guest.replaceKnownHostKey();
    assertThatThrownBy(() -> host.guest("192.168.64.10", SEED, mac.guest.keyFile()))
        .isInstanceOf(LumeException.Unavailable.class)
        .hasMessageContaining("host key mismatch for " + SEED);
    assertThatThrownBy(() -> host.guest("192.168.64.10", "another-seed", mac.guest.keyFile()))
        .hasMessageContaining("host another-seed is not in");
  }
}
