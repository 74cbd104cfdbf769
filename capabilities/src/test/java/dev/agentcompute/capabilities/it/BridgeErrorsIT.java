package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.ComputeCapabilities;
import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.Views.NetworkView;
import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.adapter.net.NetCapabilities;
import dev.agentcompute.capabilities.adapter.sandbox.SandboxCapabilities;
import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.incus.IncusPlatform;
import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.model.Ipv4Cidr;
import dev.agentcompute.capabilities.platform.ImageDriver;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import dev.agentcompute.capabilities.service.Compute;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every error text of docs/reference/capabilities.md that applies to the bridge fabric, asserted
 * against the real incusd.
 */
class BridgeErrorsIT {
  private static final String OPERATOR = "operator";
  @RegisterExtension static final RuntimeFixture IT = RuntimeFixture.perClass();
  private static String sb;

  @BeforeAll
  static void start() {
    IT.start(IncusHarness.config());
    sb = IT.sandbox("iterr", OptionalLong.empty());
    call("instance.create", create("web", "busybox", Optional.empty()));
  }

  private static <O> O call(String name, Record input) {
    return IT.call(OPERATOR, name, input);
  }

  private static InstanceCapabilities.CreateInput create(
      String name, String image, Optional<String> kind) {
    return new InstanceCapabilities.CreateInput(
        sb,
        name,
        image,
        kind,
        OptionalLong.empty(),
        OptionalLong.empty(),
        OptionalLong.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty());
  }

  private static void fails(String capability, Record input, String message) {
    failsAs(OPERATOR, capability, input, message);
  }

  private static void failsAs(String subject, String capability, Record input, String message) {
    assertThatThrownBy(() -> IncusHarness.call(IT.capabilities(), subject, capability, input))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage(message);
  }

  private static SandboxCapabilities.CreateInput sandbox(
      String name, String platform, Long ttl, Boolean pinned) {
    return new SandboxCapabilities.CreateInput(
        Optional.ofNullable(name),
        Optional.ofNullable(platform),
        ttl == null ? OptionalLong.empty() : OptionalLong.of(ttl),
        Optional.ofNullable(pinned));
  }

  @Test
  void sandboxErrors() {
    fails(
        "sandbox.create", sandbox(null, "windows", null, null), "unsupported platform \"windows\"");
    fails("sandbox.create", sandbox(null, null, 0L, null), "ttl_minutes must be positive");
    fails("sandbox.create", sandbox(null, null, 153_722_868L, null), "ttl_minutes is too large");
    failsAs(
        "intruder",
        "sandbox.create",
        sandbox(null, null, null, true),
        "pinning requires an operator identity");
    failsAs(
        "",
        "sandbox.create",
        sandbox(null, null, null, true),
        "pinning requires an operator identity");
    fails(
        "sandbox.create", sandbox(null, null, 1441L, null), "ttl exceeds maximum of 1440 minutes");
    fails("sandbox.create", sandbox("Bad_Name", null, null, null), "invalid name \"Bad_Name\"");
    fails("sandbox.create", sandbox("default", null, null, null), "name \"default\" is reserved");
    fails("sandbox.create", sandbox("none", null, null, null), "name \"none\" is reserved");
    fails(
        "sandbox.create",
        sandbox(IncusHarness.uniqueName("itmac"), "mac", null, null),
        "platform \"mac\" is not available yet");
    fails("sandbox.create", sandbox(sb, null, null, null), "sandbox \"" + sb + "\" already exists");
    String missing = IncusHarness.uniqueName("itmissing");
    fails(
        "sandbox.get",
        new SandboxCapabilities.NameInput(missing),
        "sandbox \"" + missing + "\" not found");
    fails(
        "sandbox.delete",
        new SandboxCapabilities.NameInput(missing),
        "sandbox \"" + missing + "\" not found");
    fails(
        "sandbox.extend",
        new SandboxCapabilities.ExtendInput(sb, 0),
        "ttl_minutes must be positive");
    fails(
        "sandbox.extend",
        new SandboxCapabilities.ExtendInput(sb, 5000),
        "ttl exceeds maximum of 1440 minutes");
    failsAs(
        "intruder",
        "sandbox.pin",
        new SandboxCapabilities.PinInput(sb, false),
        "pinning requires an operator identity");
    fails(
        "instance.list",
        new InstanceCapabilities.SandboxInput(missing),
        "sandbox \"" + missing + "\" not found");
  }

  @Test
  void anExpiredSandboxRefusesMutationsButStillAnswersReads() {
    ComputeConfig config = IncusHarness.config();
    Compute later =
        Compute.over(
            new PlatformRouter(
                List.of(IncusPlatform.overUnixSocket(IncusHarness.socket(), config).platform())),
            config,
            ImageCatalog.load(config.catalogFile()),
            Clock.offset(Clock.systemUTC(), Duration.ofDays(2)),
            new SplittableRandom());
    List<CapabilityDefinition<?, ?>> future = ComputeCapabilities.definitions(later);
    String expired = "sandbox \"" + sb + "\" has expired";
    assertThatThrownBy(
            () ->
                IncusHarness.call(
                    future,
                    OPERATOR,
                    "sandbox.extend",
                    new SandboxCapabilities.ExtendInput(sb, 10)))
        .hasMessage(expired);
    assertThatThrownBy(
            () ->
                IncusHarness.call(
                    future, OPERATOR, "sandbox.pin", new SandboxCapabilities.PinInput(sb, true)))
        .hasMessage(expired);
    assertThatThrownBy(
            () ->
                IncusHarness.call(
                    future,
                    OPERATOR,
                    "instance.create",
                    create("late", "busybox", Optional.empty())))
        .hasMessage(expired);
    assertThatThrownBy(
            () ->
                IncusHarness.call(
                    future,
                    OPERATOR,
                    "net.create",
                    new NetCapabilities.CreateInput(
                        sb,
                        "late",
                        Optional.of("bridge"),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty())))
        .hasMessage(expired);
    assertThatThrownBy(
            () ->
                IncusHarness.call(
                    future,
                    OPERATOR,
                    "instance.stop",
                    new InstanceCapabilities.StateInput(sb, "web", Optional.empty())))
        .hasMessage(expired);
    SandboxCapabilities.GetOutput got =
        IncusHarness.call(future, OPERATOR, "sandbox.get", new SandboxCapabilities.NameInput(sb));
    assertThat(got.instances()).extracting(i -> i.name()).contains("web");
  }

  @Test
  void instanceErrors() {
    fails("instance.create", create("x", "", Optional.empty()), "image \"\" not found");
    fails("instance.create", create("x", "nope", Optional.empty()), "image \"nope\" not found");
    fails(
        "instance.create",
        create("x", "busybox", Optional.of("ovn")),
        "kind \"ovn\" is not available yet");
    fails(
        "instance.create",
        create("x", "busybox", Optional.of("vm")),
        "kind \"vm\" is not supported for image \"busybox\"");
    fails(
        "instance.create",
        new InstanceCapabilities.CreateInput(
            sb,
            "x",
            "busybox",
            Optional.empty(),
            OptionalLong.empty(),
            OptionalLong.empty(),
            OptionalLong.empty(),
            Optional.empty(),
            Optional.of("elsewhere"),
            Optional.empty()),
        "host \"elsewhere\" is not sandbox member \"none\"");
    fails(
        "instance.create",
        create("web", "busybox", Optional.empty()),
        "instance \"web\" already exists in sandbox \"" + sb + "\"");
    fails("instance.create", create("Web", "busybox", Optional.empty()), "invalid name \"Web\"");
    fails(
        "instance.get",
        new InstanceCapabilities.RefInput(sb, "ghost"),
        "instance \"ghost\" not found in sandbox \"" + sb + "\"");
    fails(
        "instance.delete",
        new InstanceCapabilities.RefInput(sb, "ghost"),
        "instance \"ghost\" not found in sandbox \"" + sb + "\"");
    fails("instance.exec", exec("web", "true", null, "relative"), "cwd must be an absolute path");
    fails("instance.exec", exec("web", "true", -1L, null), "timeout_seconds must be non-negative");
    fails(
        "instance.exec",
        new InstanceCapabilities.ExecInput(
            sb,
            "web",
            "true",
            OptionalLong.empty(),
            Optional.of("bob"),
            Optional.empty(),
            Optional.empty(),
            Optional.empty()),
        "user must be a numeric UID");
    fails(
        "instance.wait",
        new InstanceCapabilities.WaitInput(sb, "web", "soon", OptionalLong.empty()),
        "until \"soon\" is not a stage: use one of running, agent, network, desktop, stopped");
    fails(
        "instance.wait",
        new InstanceCapabilities.WaitInput(sb, "web", "stopped", OptionalLong.of(1)),
        "instance \"web\" in sandbox \"" + sb + "\" did not become stopped");
  }

  private static InstanceCapabilities.ExecInput exec(
      String name, String command, Long timeout, String cwd) {
    return new InstanceCapabilities.ExecInput(
        sb,
        name,
        command,
        timeout == null ? OptionalLong.empty() : OptionalLong.of(timeout),
        Optional.empty(),
        Optional.ofNullable(cwd),
        Optional.empty(),
        Optional.empty());
  }

  @Test
  void execDeadlineReportsTimedOutWithoutAnError() {
    ExecResult out = call("instance.exec", exec("web", "echo started; sleep 30", 1L, null));
    assertThat(out.timed_out()).isTrue();
    assertThat(out.exit_code()).isEqualTo(-1);
    assertThat(out.stdout()).isEqualTo("started\n");
  }

  @Test
  void concurrentSandboxesNeverShareASubnet() throws Exception {
    List<String> names =
        List.of(
            IncusHarness.uniqueName("itpar"),
            IncusHarness.uniqueName("itpar"),
            IncusHarness.uniqueName("itpar"));
    try (var pool = java.util.concurrent.Executors.newFixedThreadPool(names.size())) {
      List<java.util.concurrent.Future<SandboxCapabilities.CreateOutput>> futures =
          new java.util.ArrayList<>();
      for (String name : names) {
        futures.add(
            pool.submit(
                () ->
                    IncusHarness.<SandboxCapabilities.CreateOutput>call(
                        IT.capabilities(),
                        OPERATOR,
                        "sandbox.create",
                        sandbox(name, null, 5L, null))));
      }
      java.util.Set<String> cidrs = new java.util.HashSet<>();
      for (var future : futures) {
        cidrs.add(future.get().network().cidr());
      }
      assertThat(cidrs).hasSize(names.size()).allMatch(c -> c.startsWith("10.211."));
    } finally {
      for (String name : names) {
        try {
          new ComputeCalls(IT.runtime()).deleteSandbox(name);
        } catch (RuntimeException e) {
          // not created
        }
      }
    }
    IncusInspector incus = new IncusInspector(IncusHarness.socket());
    for (String name : names) {
      incus.awaitGone(name); // deletions finish in the background
      assertThat(incus.projectExists("ac-" + name)).isFalse();
      assertThat(incus.networksTaggedWith(name)).isEmpty();
    }
  }

  @Test
  void largeOutputsAndFilesAreCutAtTheirLimits() {
    ExecResult big =
        call(
            "instance.exec",
            exec("web", "head -c 70000 /dev/zero | tr '\\0' a; echo small >&2", null, null));
    // Head and tail around one marker line (ours; the original kept the first 64 KiB).
    String marker =
        "\n[... 4464 bytes left out here: the output keeps its start and its end ...]\n";
    assertThat(big.stdout()).isEqualTo("a".repeat(16_384) + marker + "a".repeat(49_152));
    assertThat(big.stdout_truncated()).isTrue();
    assertThat(big.stderr()).isEqualTo("small\n");
    assertThat(big.stderr_truncated()).isFalse();
    call(
        "instance.exec",
        exec("web", "head -c 2000000 /dev/zero | tr '\\0' b > /root/big", null, null));
    InstanceCapabilities.ReadOutput clamped =
        call(
            "instance.file.read",
            new InstanceCapabilities.ReadInput(sb, "web", "/root/big", OptionalLong.of(2_000_000)));
    assertThat(clamped.content()).hasSize(1_048_576);
    assertThat(clamped.truncated()).isTrue();
    InstanceCapabilities.ReadOutput byDefault =
        call(
            "instance.file.read",
            new InstanceCapabilities.ReadInput(sb, "web", "/root/big", OptionalLong.empty()));
    assertThat(byDefault.content()).hasSize(65_536);
    assertThat(byDefault.truncated()).isTrue();
  }

  @Test
  void fileErrors() {
    fails(
        "instance.file.read",
        new InstanceCapabilities.ReadInput(sb, "web", "etc/hostname", OptionalLong.empty()),
        "path must be an absolute path");
    fails(
        "instance.file.read",
        new InstanceCapabilities.ReadInput(sb, "web", "/nope/missing", OptionalLong.empty()),
        "file not found on instance \"web\" in sandbox \"" + sb + "\"");
    fails(
        "instance.file.read",
        new InstanceCapabilities.ReadInput(sb, "web", "/root", OptionalLong.empty()),
        "path is not a regular file on instance \"web\" in sandbox \"" + sb + "\"");
    fails(
        "instance.file.write",
        new InstanceCapabilities.WriteInput(
            sb, "web", "/root/big", "x".repeat(65_537), Optional.empty()),
        "file content exceeds 65536 bytes (instance.file.write's limit); move a larger file with"
            + " instance.file.upload_url");
    fails(
        "instance.file.write",
        new InstanceCapabilities.WriteInput(sb, "web", "/root/f", "x", Optional.of("9")),
        "mode \"9\" is not an octal file mode");
  }

  @Test
  void snapshotErrors() {
    String ghost = "snapshot \"ghost\" not found on instance \"web\" in sandbox \"" + sb + "\"";
    fails(
        "instance.snapshot.restore",
        new InstanceCapabilities.SnapshotInput(sb, "web", "ghost"),
        ghost);
    fails(
        "instance.snapshot.delete",
        new InstanceCapabilities.SnapshotInput(sb, "web", "ghost"),
        ghost);
    fails(
        "instance.snapshot.create",
        new InstanceCapabilities.SnapshotInput(sb, "web", "Bad"),
        "invalid name \"Bad\"");
    call("instance.snapshot.create", new InstanceCapabilities.SnapshotInput(sb, "web", "twice"));
    fails(
        "instance.snapshot.create",
        new InstanceCapabilities.SnapshotInput(sb, "web", "twice"),
        "snapshot \"twice\" already exists on instance \"web\" in sandbox \"" + sb + "\"");
    call("instance.snapshot.delete", new InstanceCapabilities.SnapshotInput(sb, "web", "twice"));
  }

  private static NetCapabilities.CreateInput network(String name, String kind, String cidr) {
    return new NetCapabilities.CreateInput(
        sb,
        name,
        Optional.ofNullable(kind),
        Optional.ofNullable(cidr),
        Optional.empty(),
        Optional.empty(),
        Optional.empty());
  }

  private static InstanceCapabilities.CreateInput sized(long cpus, long memoryMb, long diskGb) {
    return new InstanceCapabilities.CreateInput(
        sb,
        "sized",
        "busybox",
        Optional.empty(),
        cpus == 0 ? OptionalLong.empty() : OptionalLong.of(cpus),
        memoryMb == 0 ? OptionalLong.empty() : OptionalLong.of(memoryMb),
        diskGb == 0 ? OptionalLong.empty() : OptionalLong.of(diskGb),
        Optional.empty(),
        Optional.empty(),
        Optional.empty());
  }

  @Test
  void resourceArgumentsAreCheckedBeforeIncusAndNameTheArgument() {
    fails("instance.create", sized(-1, 0, 0), "cpus must be between 1 and 256");
    fails("instance.create", sized(1L << 40, 0, 0), "cpus must be between 1 and 256");
    fails("instance.create", sized(0, -5, 0), "memory_mb must be between 16 and 1048576");
    fails("instance.create", sized(0, 8, 0), "memory_mb must be between 16 and 1048576");
    fails("instance.create", sized(0, 0, -1), "disk_gb must be between 1 and 65536");
    InstanceCapabilities.ListOutput listed =
        call("instance.list", new InstanceCapabilities.SandboxInput(sb));
    assertThat(listed.items()).extracting(i -> i.name()).doesNotContain("sized");
  }

  @Test
  void fileArgumentsAndIncusFileFailuresReadAsPlainErrors() {
    fails(
        "instance.file.read",
        new InstanceCapabilities.ReadInput(sb, "web", "/etc/hostname", OptionalLong.of(-1)),
        "max_bytes must be non-negative");
    fails(
        "instance.file.write",
        new InstanceCapabilities.WriteInput(sb, "web", "/tmp/m", "x", Optional.of("10000")),
        "mode \"10000\" is out of range: a file mode is at most 7777 (permissions with setuid,"
            + " setgid and sticky)");
    fails(
        "instance.file.write",
        new InstanceCapabilities.WriteInput(sb, "web", "/nodir/x.txt", "x", Optional.empty()),
        "parent directory of \"/nodir/x.txt\" does not exist on instance \"web\" in sandbox \""
            + sb
            + "\"");
  }

  @Test
  void execNamesAMissingWorkingDirectoryInsteadOfRunningInTheRoot() {
    fails(
        "instance.exec",
        exec("web", "pwd", null, "/nonexistent"),
        "cwd \"/nonexistent\" does not exist on instance \"web\" in sandbox \"" + sb + "\"");
    fails(
        "instance.exec",
        exec("web", "pwd", null, "/etc/hostname"),
        "cwd \"/etc/hostname\" is not a directory on instance \"web\" in sandbox \"" + sb + "\"");
    ExecResult inTmp = call("instance.exec", exec("web", "pwd", null, "/tmp"));
    assertThat(inTmp.stdout().trim()).isEqualTo("/tmp");
  }

  @Test
  void execEnvKeysMustBeVariableNames() {
    fails(
        "instance.exec",
        new InstanceCapabilities.ExecInput(
            sb,
            "web",
            "true",
            OptionalLong.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.of("GOOD=1\n1BAD=2")),
        "env key \"1BAD\" is not a variable name (letters, digits and _, not starting with a"
            + " digit)");
  }

  @Test
  void hostRoutesAreNotTheAgentsToChoose() {
    SandboxCapabilities.GetOutput detail =
        call("sandbox.get", new SandboxCapabilities.NameInput(sb));
    NetworkView own = detail.networks().getFirst();
    String taken = own.cidr(); // this sandbox's default bridge: a subnet already in use
    fails(
        "net.create",
        network("lan", "bridge", "127.0.0.1/8"),
        "cidr \"127.0.0.1/8\" is outside the sandbox subnet pool 10.211.0.0/16");
    fails(
        "net.create",
        network("lan", "bridge", "0.0.0.1/0"),
        "cidr \"0.0.0.1/0\" is outside the sandbox subnet pool 10.211.0.0/16");
    fails(
        "net.create",
        network("lan", "bridge", "10.10.10.1/24"),
        "cidr \"10.10.10.1/24\" is outside the sandbox subnet pool 10.211.0.0/16");
    fails(
        "net.create",
        network("lan", "bridge", taken),
        "cidr \""
            + taken
            + "\" overlaps a subnet already in use ("
            + Ipv4Cidr.parse(taken).orElseThrow().network()
            + ")");
    String networkAddress = Ipv4Cidr.parse(taken).orElseThrow().network().toString();
    fails(
        "net.create",
        network("lan", "bridge", networkAddress),
        "cidr \""
            + networkAddress
            + "\" is a network address; give the bridge's own address, such as \""
            + Ipv4Cidr.parse(taken).orElseThrow().host(1)
            + "\"");
    NetCapabilities.ListOutput listed = call("net.list", new NetCapabilities.SandboxInput(sb));
    assertThat(listed.items()).extracting(NetworkView::name).doesNotContain("lan");
  }

  @Test
  void networkErrorsAndNicLifecycle() {
    fails(
        "net.create",
        network("lan", "vlan", null),
        "unsupported network kind \"vlan\": use bridge or ovn, or leave kind out for the"
            + " sandbox's own");
    fails(
        "net.create",
        network("lan", "ovn", null),
        "cannot create a \"ovn\" network in a \"bridge\" sandbox; leave kind out to get the"
            + " sandbox's \"bridge\"");
    fails("net.create", network("default", "bridge", null), "name \"default\" is reserved");
    fails("net.create", network("lan", "bridge", "10.0.0.0/40"), "invalid cidr \"10.0.0.0/40\"");
    fails(
        "net.get",
        new NetCapabilities.RefInput(sb, "ghost"),
        "network \"ghost\" not found in sandbox \"" + sb + "\"");
    fails(
        "net.delete", new NetCapabilities.RefInput(sb, "default"), "name \"default\" is reserved");
    fails(
        "net.delete",
        new NetCapabilities.RefInput(sb, "ghost"),
        "network \"ghost\" not found in sandbox \"" + sb + "\"");
    fails(
        "net.attach",
        new NetCapabilities.AttachInput(
            sb, "web", "ghost", Optional.empty(), Optional.empty(), Optional.empty()),
        "network \"ghost\" not found in sandbox \"" + sb + "\"");

    NetworkView lan =
        call(
            "net.create",
            new NetCapabilities.CreateInput(
                sb,
                "lan",
                Optional.of("bridge"),
                Optional.empty(),
                Optional.of(true),
                Optional.empty(),
                Optional.empty()));
    assertThat(lan.kind()).isEqualTo("bridge");
    assertThat(lan.cidr()).startsWith("10.211.").endsWith(".1/24");
    NetworkView bare = call("net.create", network("bare", "bridge", null));
    assertThat(bare.cidr()).isEqualTo("none");
    assertThat(bare.gateway()).isEmpty();
    fails(
        "net.create",
        network("lan", "bridge", null),
        "network \"lan\" already exists in sandbox \"" + sb + "\"");
    NetCapabilities.ListOutput listed = call("net.list", new NetCapabilities.SandboxInput(sb));
    assertThat(listed.items())
        .extracting(NetworkView::name)
        .containsExactlyInAnyOrder("default", "lan", "bare");
    assertThat(listed.items()).extracting(NetworkView::cidr).doesNotHaveDuplicates();

    NetCapabilities.AttachOutput attached =
        call(
            "net.attach",
            new NetCapabilities.AttachInput(
                sb, "web", "lan", Optional.empty(), Optional.empty(), Optional.empty()));
    assertThat(attached.nic()).isEqualTo("eth1");
    assertThat(attached.mac()).matches("([0-9a-f]{2}:){5}[0-9a-f]{2}");
    fails(
        "net.attach",
        new NetCapabilities.AttachInput(
            sb, "web", "lan", Optional.of("eth1"), Optional.empty(), Optional.empty()),
        "nic \"eth1\" already exists on instance \"web\"");
    fails(
        "net.delete",
        new NetCapabilities.RefInput(sb, "lan"),
        "network \"lan\" still has attached NICs in sandbox \"" + sb + "\"");
    fails(
        "net.detach",
        new NetCapabilities.DetachInput(sb, "web", "eth9"),
        "nic \"eth9\" not found on instance \"web\" in sandbox \"" + sb + "\"");
    InstanceCapabilities.GetOutput web =
        call("instance.get", new InstanceCapabilities.RefInput(sb, "web"));
    assertThat(web.nics())
        .extracting(n -> n.name() + "@" + n.network())
        .contains("eth0@default", "eth1@lan");
    call("net.detach", new NetCapabilities.DetachInput(sb, "web", "eth1"));
    call("net.delete", new NetCapabilities.RefInput(sb, "lan"));
    call("net.delete", new NetCapabilities.RefInput(sb, "bare"));
    NetCapabilities.ListOutput after = call("net.list", new NetCapabilities.SandboxInput(sb));
    assertThat(after.items()).extracting(NetworkView::name).containsExactly("default");
  }

  private static NetCapabilities.ImpairInput impair(
      String instance, String nic, Long latency, Long jitter, Double loss, Boolean clear) {
    return new NetCapabilities.ImpairInput(
        sb,
        instance,
        nic,
        latency == null ? OptionalLong.empty() : OptionalLong.of(latency),
        jitter == null ? OptionalLong.empty() : OptionalLong.of(jitter),
        loss == null ? OptionalDouble.empty() : OptionalDouble.of(loss),
        OptionalLong.empty(),
        Optional.ofNullable(clear));
  }

  @Test
  void impairValidatesAndClearsIdempotently() {
    fails(
        "net.impair",
        impair("web", "eth0", -1L, null, null, null),
        "impairment values must be non-negative");
    fails(
        "net.impair",
        impair("web", "eth0", null, null, 150.0, null),
        "loss_percent must be between 0 and 100");
    fails(
        "net.impair", impair("web", "eth0", null, 5L, null, null), "jitter_ms requires latency_ms");
    fails("net.impair", impair("web", "eth0", null, null, null, null), "no impairment specified");
    fails(
        "net.impair",
        impair("web", "eth9", null, null, null, true),
        "nic \"eth9\" not found on instance \"web\" in sandbox \"" + sb + "\"");
    fails(
        "net.impair",
        impair("ghost", "eth0", null, null, null, true),
        "instance \"ghost\" not found in sandbox \"" + sb + "\"");
    call("net.impair", impair("web", "eth0", null, null, null, true));
    call("net.impair", impair("web", "eth0", null, null, null, true));
  }

  @Test
  void impairAppliesNetem() {
    ExecResult probe =
        call(
            "instance.exec",
            exec(
                "web",
                "tc qdisc add dev lo root netem delay 1ms && tc qdisc del dev lo root",
                null,
                null));
    Assumptions.assumeTrue(
        probe.exit_code() == 0,
        "this kernel has no netem qdisc (tbf works) and busybox tc cannot add one, so net.impair cannot apply: "
            + probe.stderr().trim());
    call("net.impair", impair("web", "eth0", 20L, null, null, null));
    ExecResult shown = call("instance.exec", exec("web", "tc qdisc show dev eth0", null, null));
    assertThat(shown.stdout()).contains("netem");
    call("net.impair", impair("web", "eth0", null, null, null, true));
  }

  @Test
  void impairOnAStoppedInstanceIsRefused() {
    call(
        "instance.create",
        new InstanceCapabilities.CreateInput(
            sb,
            "idle",
            "busybox",
            Optional.empty(),
            OptionalLong.empty(),
            OptionalLong.empty(),
            OptionalLong.empty(),
            Optional.of("none"),
            Optional.empty(),
            Optional.of(false)));
    fails(
        "net.impair",
        impair("idle", "eth0", 10L, null, null, null),
        "instance \"idle\" in sandbox \"" + sb + "\" is not running");
    fails(
        "instance.exec",
        exec("idle", "true", null, null),
        "instance \"idle\" in sandbox \"" + sb + "\" is not running");
    call("instance.delete", new InstanceCapabilities.RefInput(sb, "idle"));
  }

  @Test
  void theSandboxProjectCarriesExactlyTheRestrictedKeys() {
    IncusInspector incus = new IncusInspector(IncusHarness.socket());
    tools.jackson.databind.JsonNode config = incus.query("/1.0/projects/ac-" + sb).path("config");
    java.util.Map<String, String> actual = new java.util.TreeMap<>();
    config.properties().forEach(e -> actual.put(e.getKey(), e.getValue().asString()));
    String bridge = actual.get("user.agentcompute.network.default");
    assertThat(bridge).matches("ac[0-9a-f]{8}");
    java.util.Map<String, String> expected =
        new java.util.TreeMap<>(
            java.util.Map.ofEntries(
                java.util.Map.entry("features.images", "true"),
                java.util.Map.entry("features.profiles", "true"),
                java.util.Map.entry("features.networks", "false"),
                // Quotas (docs/configuration.md): the project's own Incus limits under the quota
                // checks.
                java.util.Map.entry("limits.instances", "32"),
                java.util.Map.entry("limits.cpu", "64"),
                java.util.Map.entry("limits.memory", "65536MiB"),
                // Root disks and images together; limits.processes only when configured.
                java.util.Map.entry("limits.disk", "4096GiB"),
                java.util.Map.entry("restricted", "true"),
                java.util.Map.entry("restricted.containers.nesting", "block"),
                java.util.Map.entry("restricted.containers.privilege", "unprivileged"),
                java.util.Map.entry("restricted.containers.lowlevel", "block"),
                java.util.Map.entry("restricted.cluster.target", "allow"),
                java.util.Map.entry("restricted.snapshots", "allow"),
                java.util.Map.entry("restricted.devices.nic", "managed"),
                java.util.Map.entry("restricted.devices.disk", "managed"),
                java.util.Map.entry("restricted.devices.gpu", "block"),
                java.util.Map.entry("restricted.devices.pci", "block"),
                java.util.Map.entry("restricted.devices.proxy", "block"),
                java.util.Map.entry("restricted.devices.usb", "block"),
                java.util.Map.entry("restricted.devices.unix-block", "block"),
                java.util.Map.entry("restricted.devices.unix-char", "block"),
                java.util.Map.entry("restricted.devices.unix-hotplug", "block"),
                java.util.Map.entry("restricted.devices.infiniband", "block"),
                java.util.Map.entry("restricted.networks.access", bridge),
                java.util.Map.entry("user.agentcompute.host", "none"),
                java.util.Map.entry("user.agentcompute.network.default", bridge),
                java.util.Map.entry("user.agentcompute.version", "1"),
                java.util.Map.entry("user.agentcompute.subject", OPERATOR)));
    // Incus itself fills in the storage features a new project does not name; we never write them.
    actual.remove("features.storage.buckets");
    actual.remove("features.storage.volumes");
    actual.remove("user.agentcompute.created_at");
    actual.remove("user.agentcompute.expires_at");
    assertThat(actual).isEqualTo(expected);
    tools.jackson.databind.JsonNode network = incus.query("/1.0/networks/" + bridge);
    assertThat(network.path("config").path("user.agentcompute.sandbox").asString()).isEqualTo(sb);
    assertThat(network.path("config").path("ipv4.address").asString()).startsWith("10.211.");
    assertThat(network.path("config").path("ipv6.address").asString()).isEqualTo("none");
  }

  @Test
  void startupReconciliationNamesAMissingAliasAndReadinessReflectsTheDaemon() {
    ComputeConfig config = IncusHarness.config();
    IncusPlatform backend = IncusPlatform.overUnixSocket(IncusHarness.socket(), config);
    ImageDriver images = backend.platform().images().orElseThrow();
    images.reconcile(ImageCatalog.load(config.catalogFile()));
    String alias = IncusHarness.uniqueName("missing");
    assertThatThrownBy(
            () ->
                images.reconcile(
                    ImageCatalog.parse(
                        """
        schema_version: 1
        images:
          - {name: ghost, os: x, version: "1", kind: container, kinds: [container], alias: %s,
             cpus: 1, memory_mb: 64, disk_gb: 1}
        """
                            .formatted(alias))))
        .isInstanceOf(dev.agentcompute.capabilities.catalog.CatalogException.class)
        .hasMessage(
            "catalog image \"ghost\": alias \""
                + alias
                + "\" is missing from Incus project \"default\"");
    assertThat(IT.runtime().ready()).isTrue();
    assertThat(
            IncusPlatform.overUnixSocket(java.nio.file.Path.of("/nonexistent/unix.socket"), config)
                .ready())
        .isFalse();
    assertThat(
            IncusPlatform.overUnixSocket(
                    IncusHarness.socket(), config.withStoragePool("no-such-pool"))
                .ready())
        .isFalse();
  }
}
