package dev.agentcompute.capabilities.hostile;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.incus.LocalIncus;
import dev.agentcompute.capabilities.model.ExecRequest;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.model.Ipv4Cidr;
import dev.agentcompute.capabilities.model.SandboxInstance;
import dev.agentcompute.capabilities.model.SubnetPool;
import dev.agentcompute.capabilities.service.Compute;
import dev.agentcompute.capabilities.service.InstanceService;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What the hostile-agent suite shares: a runtime on the dev incusd whose sandboxes take their
 * subnets from 10.211.0.0/17 (the suite's half of the test range, so its bridge baseline is its
 * own), and an agent's view of a shell inside an instance, every command bounded.
 */
final class Hostile {
  static final SubnetPool POOL = SubnetPool.parse("10.211.0.0/17", 24);
  static final List<Ipv4Cidr> PROTECTED = List.of(Ipv4Cidr.parse("10.10.10.0/24").orElseThrow());

  private Hostile() {}

  static ComputeConfig config(List<Ipv4Cidr> protectedRanges) {
    return ComputeConfig.defaults()
        .withCatalogFile(LocalIncus.root().resolve("images/catalog.yaml"))
        .withBridgeSubnets(POOL)
        .withProtectedRanges(protectedRanges)
        .withReaperInterval(Duration.ofHours(1));
  }

  static ComputeRuntime start(ComputeConfig config) {
    return ComputeRuntime.startIncus(config, LocalIncus.socket());
  }

  static String unique(String prefix) {
    return prefix + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);
  }

  /** A busybox container on the sandbox's default network, running. */
  static SandboxInstance busybox(Compute compute, String sandbox, String name) {
    return compute
        .instances()
        .create(
            sandbox,
            name,
            "busybox",
            new InstanceService.CreateOptions(null, null, null, null, null, null, true));
  }

  /** Runs {@code script} with {@code sh -c} as root, killed after {@code seconds}. */
  static ExecResult sh(
      Compute compute, String sandbox, String instance, long seconds, String script) {
    return compute
        .instances()
        .exec(
            sandbox,
            instance,
            ExecRequest.shell(script).withTimeout(Optional.of(Duration.ofSeconds(seconds))));
  }

  /** The instance's first IPv4 on eth0, waiting (bounded) for DHCP. */
  static String address(Compute compute, String sandbox, String instance) {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
    while (true) {
      SandboxInstance found = compute.instances().get(sandbox, instance);
      for (String a : found.addresses().getOrDefault("eth0", List.of())) {
        if (!a.contains(":")) {
          return a.contains("/") ? a.substring(0, a.indexOf('/')) : a;
        }
      }
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError(instance + " got no IPv4 address within 90 s");
      }
      sleep(Duration.ofMillis(500));
    }
  }

  /**
   * Starts a TCP listener on {@code port} that answers each connection with {@code secret}: what a
   * victim serves.
   */
  static void serve(Compute compute, String sandbox, String instance, int port, String secret) {
    ExecResult r =
        sh(
            compute,
            sandbox,
            instance,
            20,
            "nc -ll -p "
                + port
                + " -e /bin/echo "
                + secret
                + " </dev/null >/dev/null 2>&1 & sleep 1; netstat -ltn | grep -q ':"
                + port
                + " '");
    if (r.exit_code() != 0) {
      throw new AssertionError("listener on " + instance + " did not start: " + r);
    }
  }

  /** What {@code nc} got from {@code address:port} within 3 s: the secret when it connected. */
  static String connect(
      Compute compute, String sandbox, String instance, String address, int port) {
    return sh(compute, sandbox, instance, 20, "nc -w 3 " + address + " " + port + " </dev/null")
        .stdout()
        .trim();
  }

  /** Whether one ping from the instance to {@code address} got an answer within 2 s. */
  static boolean pings(Compute compute, String sandbox, String instance, String address) {
    return sh(compute, sandbox, instance, 20, "ping -c 1 -W 2 " + address).exit_code() == 0;
  }

  static void sleep(Duration d) {
    try {
      Thread.sleep(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
