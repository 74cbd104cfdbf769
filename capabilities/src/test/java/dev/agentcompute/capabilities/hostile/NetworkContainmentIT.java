package dev.agentcompute.capabilities.hostile;

import static dev.agentcompute.capabilities.hostile.Hostile.address;
import static dev.agentcompute.capabilities.hostile.Hostile.connect;
import static dev.agentcompute.capabilities.hostile.Hostile.pings;
import static dev.agentcompute.capabilities.hostile.Hostile.sh;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.incus.IncusPlatform;
import dev.agentcompute.capabilities.incus.LocalIncus;
import dev.agentcompute.capabilities.model.Ipv4Cidr;
import dev.agentcompute.capabilities.model.SandboxNetwork;
import dev.agentcompute.capabilities.service.Compute;
import dev.agentcompute.incus.IncusClient;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A hostile agent in sandbox A on the bridge fabric tries to reach what it must not: sandbox B's
 * instance, the host's listeners (on A's gateway and on a wildcard address), a protected range, and
 * others' traffic by spoofing its IP or MAC. Each attempt has a positive control beside it (A's own
 * second instance, DNS on the gateway, an unprotected outside machine) so a broken network cannot
 * pass for containment. Every command is bounded; the class is bounded as a whole.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class NetworkContainmentIT {
  private static final int PORT = 8000;

  private static ComputeRuntime runtime;
  private static Compute compute;
  private static IncusClient incus;
  private static Victim victim;
  private static String a;
  private static String b;
  private static String gatewayA;
  private static String a2Address;
  private static String b1Address;

  @BeforeAll
  static void start() {
    runtime = Hostile.start(Hostile.config(Hostile.PROTECTED));
    compute = runtime.compute();
    incus = IncusClient.unixSocket(LocalIncus.socket()).build();
    // The victim's bridge gives the host a new address: it exists before the sandboxes' bridges,
    // whose creation brings the baseline up to date with the host's addresses.
    victim = Victim.start(incus);
    a = Hostile.unique("hxa");
    b = Hostile.unique("hxb");
    SandboxNetwork netA = compute.sandboxes().create("alice", a, null, 30, false).network().get();
    compute.sandboxes().create("bob", b, null, 30, false);
    gatewayA = netA.gateway();
    for (String name : List.of("a1", "a2", "spoof")) {
      Hostile.busybox(compute, a, name);
    }
    Hostile.busybox(compute, b, "b1");
    address(compute, a, "a1");
    a2Address = address(compute, a, "a2");
    address(compute, a, "spoof");
    b1Address = address(compute, b, "b1");
    Hostile.serve(compute, a, "a2", PORT, "secret-of-a2");
    Hostile.serve(compute, b, "b1", PORT, "secret-of-b");
  }

  @AfterAll
  static void stop() {
    try {
      if (victim != null) {
        victim.close();
      }
      for (String s : new String[] {a, b}) {
        if (s != null) {
          try {
            compute.sandboxes().delete(s);
          } catch (RuntimeException e) {
            // already gone
          }
        }
      }
    } finally {
      if (incus != null) {
        incus.close();
      }
      runtime.close();
    }
  }

  @Test
  void anotherSandboxIsUnreachable() {
    // Control: the sandbox's own instances reach each other.
    assertThat(connect(compute, a, "a1", a2Address, PORT)).isEqualTo("secret-of-a2");
    assertThat(pings(compute, a, "a1", a2Address)).isTrue();

    assertThat(connect(compute, a, "a1", b1Address, PORT)).doesNotContain("secret-of-b");
    assertThat(pings(compute, a, "a1", b1Address)).isFalse();
  }

  @Test
  void hostListenersAreUnreachable() throws Exception {
    // Control: the gateway's DNS answers (dnsmasq knows a2 by its DHCP name).
    assertThat(sh(compute, a, "a1", 20, "nslookup a2.incus " + gatewayA).stdout())
        .contains(a2Address);
    List<String> hostAddresses = hostAddresses();
    try (ServerSocket onGateway = new ServerSocket();
        ServerSocket wildcard = new ServerSocket()) {
      onGateway.bind(new InetSocketAddress(InetAddress.getByName(gatewayA), 0));
      wildcard.bind(new InetSocketAddress(InetAddress.getByName("0.0.0.0"), 0));
      AtomicInteger accepted = new AtomicInteger();
      Thread t1 = acceptor(onGateway, accepted);
      Thread t2 = acceptor(wildcard, accepted);
      List<String> outputs = new ArrayList<>();
      outputs.add(connect(compute, a, "a1", gatewayA, onGateway.getLocalPort()));
      outputs.add(connect(compute, a, "a1", gatewayA, wildcard.getLocalPort()));
      for (String host : hostAddresses) {
        outputs.add(connect(compute, a, "a1", host, wildcard.getLocalPort()));
      }
      onGateway.close();
      wildcard.close();
      t1.join(5_000);
      t2.join(5_000);
      assertThat(accepted.get())
          .as("connections the host's listeners accepted from sandbox %s (tried %s)", a, outputs)
          .isZero();
    }
    assertThat(pings(compute, a, "a1", gatewayA)).isFalse();
  }

  @Test
  void aHostAddressGainedLaterIsRejectedOnceAnotherSandboxBridgeIsMade() throws Exception {
    // The host gains an address after A's bridge and the baseline were made (another bridge here;
    // a VPN or a Docker network in life). The next sandbox bridge brings the shared baseline up to
    // date, and A no longer reaches the host there.
    String octet =
        String.valueOf(200 + java.util.concurrent.ThreadLocalRandom.current().nextInt(51));
    String bridge = "hxn" + Long.toHexString(System.nanoTime() & 0xffffffL);
    String gained = "10.211." + octet + ".1";
    incus
        .networks()
        .create(
            new dev.agentcompute.incus.NetworkSpec(
                bridge,
                "bridge",
                "hostile suite: an address the host gains later",
                java.util.Map.of(
                    "ipv4.address", gained + "/24",
                    "ipv4.nat", "false",
                    "ipv4.dhcp", "false",
                    "ipv6.address", "none")));
    String c = Hostile.unique("hxc");
    try {
      compute.sandboxes().create("carol", c, null, 30, false);
      try (ServerSocket wildcard = new ServerSocket()) {
        wildcard.bind(new InetSocketAddress(InetAddress.getByName("0.0.0.0"), 0));
        AtomicInteger accepted = new AtomicInteger();
        Thread t = acceptor(wildcard, accepted);
        String output = connect(compute, a, "a1", gained, wildcard.getLocalPort());
        wildcard.close();
        t.join(5_000);
        assertThat(accepted.get())
            .as("connections from sandbox %s to the host's new address %s (%s)", a, gained, output)
            .isZero();
      }
    } finally {
      try {
        compute.sandboxes().delete(c);
      } catch (RuntimeException e) {
        // not created
      }
      incus.networks().delete(bridge);
    }
  }

  @Test
  void protectedRangeFollowsAReload() {
    // With NAT, a machine outside every sandbox and every protected range is reachable.
    assertThat(connect(compute, a, "a1", victim.address, Victim.PORT)).isEqualTo(Victim.SECRET);
    List<Ipv4Cidr> withVictim = new ArrayList<>(Hostile.PROTECTED);
    withVictim.add(Ipv4Cidr.parse(victim.subnet).orElseThrow());
    try {
      applyBaseline(withVictim);
      assertThat(connect(compute, a, "a1", victim.address, Victim.PORT))
          .doesNotContain(Victim.SECRET);
      assertThat(pings(compute, a, "a1", victim.address)).isFalse();
    } finally {
      applyBaseline(Hostile.PROTECTED);
    }
    assertThat(connect(compute, a, "a1", victim.address, Victim.PORT)).isEqualTo(Victim.SECRET);
  }

  @Test
  void spoofedAddressesGetNowhere() {
    String own = address(compute, a, "spoof");
    String spoofed = own.substring(0, own.lastIndexOf('.')) + ".250";
    String ipSpoof =
        "ip addr flush dev eth0; ip addr add "
            + spoofed
            + "/24 dev eth0; nc -w 3 "
            + a2Address
            + " "
            + PORT
            + " </dev/null; ip addr flush dev eth0; ip addr add "
            + own
            + "/24 dev eth0; ip route add default via "
            + gatewayA;
    assertThat(sh(compute, a, "spoof", 30, ipSpoof).stdout()).doesNotContain("secret-of-a2");
    String mac = sh(compute, a, "spoof", 10, "cat /sys/class/net/eth0/address").stdout().trim();
    String macSpoof =
        "ip link set eth0 down; ip link set eth0 address 02:00:5e:00:53:99; ip link set eth0 up;"
            + " ip addr add "
            + own
            + "/24 dev eth0 2>/dev/null; sleep 1; nc -w 3 "
            + a2Address
            + " "
            + PORT
            + " </dev/null; ip link set eth0 down; ip link set eth0 address "
            + mac
            + "; ip link set eth0 up; ip addr add "
            + own
            + "/24 dev eth0 2>/dev/null; ip route add default via "
            + gatewayA
            + " 2>/dev/null; true";
    assertThat(sh(compute, a, "spoof", 30, macSpoof).stdout()).doesNotContain("secret-of-a2");
    // Control: with its own addresses back, the same instance reaches a2.
    assertThat(connect(compute, a, "spoof", a2Address, PORT)).isEqualTo("secret-of-a2");
  }

  /** What a reload with these protected ranges does to the bridge baseline. */
  private static void applyBaseline(List<Ipv4Cidr> protectedRanges) {
    try (IncusPlatform platform =
        IncusPlatform.overUnixSocket(LocalIncus.socket(), Hostile.config(protectedRanges))) {
      platform.applyBridgeBaseline();
    }
  }

  /** The host's IPv4 addresses outside the suite's pool: where a wildcard listener also answers. */
  private static List<String> hostAddresses() throws IOException {
    List<String> result = new ArrayList<>();
    for (NetworkInterface nic : NetworkInterface.networkInterfaces().toList()) {
      if (nic.isLoopback() || !nic.isUp() || nic.getName().startsWith("veth")) {
        continue;
      }
      for (InetAddress address : nic.inetAddresses().toList()) {
        if (address instanceof Inet4Address) {
          result.add(address.getHostAddress());
        }
      }
    }
    return result.stream()
        .filter(h -> !Hostile.POOL.pool().overlaps(Ipv4Cidr.parse(h + "/32").orElseThrow()))
        .limit(4)
        .toList();
  }

  private static Thread acceptor(ServerSocket socket, AtomicInteger accepted) {
    return Thread.ofVirtual()
        .start(
            () -> {
              try {
                socket.setSoTimeout(60_000);
                while (true) {
                  socket.accept().close();
                  accepted.incrementAndGet();
                }
              } catch (SocketTimeoutException e) {
                // bounded
              } catch (IOException e) {
                // closed by the test
              }
            });
  }
}
