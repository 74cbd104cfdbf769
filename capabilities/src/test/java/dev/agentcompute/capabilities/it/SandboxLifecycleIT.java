package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.Views.NetworkView;
import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.adapter.sandbox.SandboxCapabilities;
import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.reaper.Reaper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The lifecycle on the real incusd through the capabilities' typed handlers, with the detail an
 * agent program cannot easily assert (exit codes, stderr, stdin, modes, truncation, snapshot
 * lists); {@link CodeModeAcceptanceIT} drives the same path through the CodeMode engine. A second
 * sandbox with a one-minute TTL is reaped by a restarted runtime, leaving nothing in Incus.
 */
class SandboxLifecycleIT {
  private static final String OPERATOR = "operator";
  private static ComputeRuntime runtime;
  private static List<CapabilityDefinition<?, ?>> caps;
  private static final List<String> created = new ArrayList<>();

  @BeforeAll
  static void start() {
    runtime = IncusHarness.start();
    caps = runtime.capabilities();
  }

  @AfterAll
  static void cleanUp() {
    for (String name : created) {
      try {
        new ComputeCalls(runtime).deleteSandbox(name);
      } catch (RuntimeException e) {
        // already gone
      }
    }
    runtime.close();
  }

  private static <O> O call(String name, Record input) {
    return IncusHarness.call(caps, OPERATOR, name, input);
  }

  private static SandboxCapabilities.CreateOutput createSandbox(String name, long ttl) {
    created.add(name);
    return call(
        "sandbox.create",
        new SandboxCapabilities.CreateInput(
            Optional.of(name),
            Optional.empty(),
            ttl == 0 ? OptionalLong.empty() : OptionalLong.of(ttl),
            Optional.empty()));
  }

  private static InstanceCapabilities.CreateOutput createInstance(
      String sandbox, String name, String image) {
    return call("instance.create", InstanceCapabilities.CreateInput.of(sandbox, name, image));
  }

  private static ExecResult exec(String sandbox, String name, String command) {
    return call(
        "instance.exec",
        new InstanceCapabilities.ExecInput(
            sandbox,
            name,
            command,
            OptionalLong.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty()));
  }

  private static String ipv4(String sandbox, String name) {
    InstanceCapabilities.WaitOutput waited =
        call(
            "instance.wait",
            new InstanceCapabilities.WaitInput(sandbox, name, "network", OptionalLong.of(60)));
    assertThat(waited.status()).isEqualTo("Running");
    InstanceCapabilities.GetOutput got =
        call("instance.get", new InstanceCapabilities.RefInput(sandbox, name));
    return got.nics().getFirst().addresses().stream()
        .filter(a -> a.contains("."))
        .findFirst()
        .orElseThrow();
  }

  private static void assertAgentError(Runnable action, String message) {
    assertThatThrownBy(action::run).isInstanceOf(AgentFacingException.class).hasMessage(message);
  }

  @Test
  void aSandboxLivesThroughItsWholeLifecycleAndIsReapedAfterItsTtl() throws Exception {
    String shortLived = IncusHarness.uniqueName("itttl");
    SandboxCapabilities.CreateOutput ttlSandbox = createSandbox(shortLived, 1);
    createInstance(shortLived, "doomed", "busybox");
    Instant ttlDeadline = Instant.parse(ttlSandbox.expires_at());

    String sb = IncusHarness.uniqueName("itlife");
    SandboxCapabilities.CreateOutput out = createSandbox(sb, 0);
    assertThat(out.platform()).isEqualTo("incus");
    assertThat(out.pinned()).isFalse();
    assertThat(out.network().name()).isEqualTo("default");
    assertThat(out.network().kind()).isEqualTo("bridge");
    assertThat(out.network().cidr()).startsWith("10.211.").endsWith(".1/24");
    assertThat(out.network().gateway()).isEqualTo(out.network().cidr().replace("/24", ""));
    assertThat(ttlSandbox.network().cidr()).isNotEqualTo(out.network().cidr());

    // Two containers on the default bridge reach each other.
    InstanceCapabilities.CreateOutput a = createInstance(sb, "alpha", "busybox");
    assertThat(a.status()).isEqualTo("Running");
    createInstance(sb, "beta", "busybox");
    String betaAddress = ipv4(sb, "beta");
    ipv4(sb, "alpha");
    ExecResult ping = exec(sb, "alpha", "ping -c 2 -W 2 " + betaAddress);
    assertThat(ping.exit_code()).as(ping.stdout() + ping.stderr()).isZero();
    assertThat(ping.stdout()).contains("2 packets received");
    ExecResult failing = exec(sb, "alpha", "echo out; echo err >&2; exit 3");
    assertThat(failing.exit_code()).isEqualTo(3);
    assertThat(failing.stdout()).isEqualTo("out\n");
    assertThat(failing.stderr()).isEqualTo("err\n");
    ExecResult withStdin =
        call(
            "instance.exec",
            new InstanceCapabilities.ExecInput(
                sb,
                "alpha",
                "tr a-z A-Z",
                OptionalLong.empty(),
                Optional.empty(),
                Optional.of("/tmp"),
                Optional.of("hello"),
                Optional.of("GREETING=hi")));
    assertThat(withStdin.stdout()).isEqualTo("HELLO");

    // Files.
    InstanceCapabilities.WriteOutput written =
        call(
            "instance.file.write",
            new InstanceCapabilities.WriteInput(
                sb, "alpha", "/root/note.txt", "first version\n", Optional.of("0640")));
    assertThat(written.bytes()).isEqualTo(14);
    InstanceCapabilities.ReadOutput read =
        call(
            "instance.file.read",
            new InstanceCapabilities.ReadInput(
                sb, "alpha", "/root/note.txt", OptionalLong.empty()));
    assertThat(read.content()).isEqualTo("first version\n");
    assertThat(read.truncated()).isFalse();
    InstanceCapabilities.ReadOutput head =
        call(
            "instance.file.read",
            new InstanceCapabilities.ReadInput(sb, "alpha", "/root/note.txt", OptionalLong.of(5)));
    assertThat(head.content()).isEqualTo("first");
    assertThat(head.truncated()).isTrue();
    assertThat(exec(sb, "alpha", "stat -c %a /root/note.txt").stdout().trim()).isEqualTo("640");

    // Snapshot, change, restore: the file is back to the snapshot's version.
    call("instance.snapshot.create", new InstanceCapabilities.SnapshotInput(sb, "alpha", "before"));
    InstanceCapabilities.SnapshotListOutput snaps =
        call("instance.snapshot.list", new InstanceCapabilities.RefInput(sb, "alpha"));
    assertThat(snaps.items())
        .extracting(InstanceCapabilities.SnapshotItem::name)
        .containsExactly("before");
    call(
        "instance.file.write",
        new InstanceCapabilities.WriteInput(
            sb, "alpha", "/root/note.txt", "second version\n", Optional.empty()));
    call(
        "instance.snapshot.restore", new InstanceCapabilities.SnapshotInput(sb, "alpha", "before"));
    InstanceCapabilities.ReadOutput restored =
        call(
            "instance.file.read",
            new InstanceCapabilities.ReadInput(
                sb, "alpha", "/root/note.txt", OptionalLong.empty()));
    assertThat(restored.content()).isEqualTo("first version\n");
    InstanceCapabilities.GetOutput alpha =
        call("instance.get", new InstanceCapabilities.RefInput(sb, "alpha"));
    assertThat(alpha.status()).isEqualTo("Running");
    assertThat(alpha.snapshots()).isEmpty();
    assertThat(alpha.image()).isEqualTo("busybox");
    assertThat(alpha.cpus()).isEqualTo(1);
    assertThat(alpha.memory_mb()).isEqualTo(128);
    assertThat(alpha.nics())
        .extracting(n -> n.name() + "@" + n.network())
        .containsExactly("eth0@default");

    // Publish a stopped instance and start a new one from the published image.
    call(
        "instance.file.write",
        new InstanceCapabilities.WriteInput(
            sb, "beta", "/root/marker", "published\n", Optional.empty()));
    assertAgentError(
        () -> call("instance.publish", new InstanceCapabilities.PublishInput(sb, "beta", "golden")),
        "instance \"beta\" must be stopped before publishing");
    InstanceCapabilities.StateOutput stopped =
        call("instance.stop", new InstanceCapabilities.StateInput(sb, "beta", Optional.of(true)));
    assertThat(stopped.status()).isEqualTo("Stopped");
    InstanceCapabilities.PublishOutput published =
        call("instance.publish", new InstanceCapabilities.PublishInput(sb, "beta", "golden"));
    assertThat(published.image()).isEqualTo("golden");
    assertAgentError(
        () -> call("instance.publish", new InstanceCapabilities.PublishInput(sb, "beta", "golden")),
        "image \"golden\" already exists in sandbox \"" + sb + "\"");
    assertAgentError(
        () ->
            call("instance.publish", new InstanceCapabilities.PublishInput(sb, "beta", "busybox")),
        "image \"busybox\" is reserved by the catalog");
    InstanceCapabilities.CreateOutput gamma = createInstance(sb, "gamma", "golden");
    assertThat(gamma.status()).isEqualTo("Running");
    assertThat(exec(sb, "gamma", "cat /root/marker").stdout()).isEqualTo("published\n");
    InstanceCapabilities.StateOutput started =
        call("instance.start", new InstanceCapabilities.StateInput(sb, "beta", Optional.empty()));
    assertThat(started.status()).isEqualTo("Running");

    // Extend and pin.
    SandboxCapabilities.ExtendOutput extended =
        call("sandbox.extend", new SandboxCapabilities.ExtendInput(sb, 120));
    // The sandbox lives 240 minutes (the default): asking for 120 keeps that, and says so.
    Instant newExpiry = Instant.parse(extended.expires_at());
    assertThat(newExpiry).isEqualTo(Instant.parse(out.expires_at()));
    assertThat(extended.note()).startsWith("kept the expiry at " + extended.expires_at());
    assertAgentError(
        () ->
            IncusHarness.call(
                caps, "intruder", "sandbox.pin", new SandboxCapabilities.PinInput(sb, true)),
        "pinning requires an operator identity");
    SandboxCapabilities.PinOutput pinned =
        call("sandbox.pin", new SandboxCapabilities.PinInput(sb, true));
    assertThat(pinned.pinned()).isTrue();
    assertThat(pinned.pinned_by()).isEqualTo(OPERATOR);

    // Restart mid-life: a new runtime over the same Incus sees TTL, pin and ownership. It comes
    // up two minutes "later" (its clock runs ahead), so the one-minute sandbox has expired for it.
    runtime.close();
    ComputeRuntime restarted = IncusHarness.startAhead(Duration.ofMinutes(2));
    try {
      List<CapabilityDefinition<?, ?>> again = restarted.capabilities();
      SandboxCapabilities.GetOutput got =
          IncusHarness.call(again, OPERATOR, "sandbox.get", new SandboxCapabilities.NameInput(sb));
      assertThat(got.pinned()).isTrue();
      assertThat(got.pinned_by()).isEqualTo(OPERATOR);
      assertThat(Instant.parse(got.expires_at())).isEqualTo(newExpiry);
      assertThat(got.instances())
          .extracting(i -> i.name())
          .containsExactlyInAnyOrder("alpha", "beta", "gamma");
      assertThat(got.networks())
          .extracting(NetworkView::cidr)
          .containsExactly(out.network().cidr());
      assertThat(restarted.compute().access().find(sb).orElseThrow().subject()).isEqualTo(OPERATOR);

      // The one-minute sandbox has expired and the restarted reaper removes everything of it.
      assertThat(ttlDeadline).isBefore(Instant.now().plus(Duration.ofMinutes(2)));
      Reaper.Scan scan = restarted.reaper().scan();
      assertThat(scan.deleted()).contains(shortLived);
      assertThat(scan.deleted()).doesNotContain(sb);
      assertThat(scan.pinned()).contains(sb);
      IncusInspector incus = new IncusInspector(IncusHarness.socket());
      assertThat(incus.projectExists("ac-" + shortLived)).isFalse();
      assertThat(incus.networksTaggedWith(shortLived)).isEmpty();
      assertThat(incus.projectExists("ac-" + sb)).isTrue();

      // Deleting the pinned sandbox removes its project, bridges, instances and images.
      IncusHarness.call(again, "anyone", "sandbox.delete", new SandboxCapabilities.NameInput(sb));
      incus.awaitGone(sb); // the deletion finishes in the background
      assertThat(incus.projectExists("ac-" + sb)).isFalse();
      assertThat(incus.networksTaggedWith(sb)).isEmpty();
      assertAgentError(
          () ->
              IncusHarness.call(
                  again, OPERATOR, "sandbox.get", new SandboxCapabilities.NameInput(sb)),
          "sandbox \"" + sb + "\" not found");
    } finally {
      restarted.close();
      runtime = IncusHarness.start();
    }
  }
}
