package dev.agentcompute.capabilities.it;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.adapter.sandbox.SandboxCapabilities;
import dev.agentcompute.incus.IncusClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * bench/compute: Incus requests and latency of sandbox.list, sandbox.get and instance.list with 1,
 * 10 and 50 sandboxes (each with one stopped busybox container) on the dev incusd. Prints a table;
 * asserts nothing.
 */
public final class ListBench {
  private static final AtomicInteger requests = new AtomicInteger();

  private ListBench() {}

  public static void main(String[] args) throws Exception {
    int samples = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    System.out.println("load average: " + Files.readString(Path.of("/proc/loadavg")).trim());
    List<String> created = new ArrayList<>();
    try (IncusClient incus =
            IncusClient.unixSocket(IncusHarness.socket())
                .onCall((method, path, status, nanos) -> requests.incrementAndGet())
                .build();
        ComputeRuntime runtime = ComputeRuntime.startIncus(IncusHarness.config(), incus)) {
      List<CapabilityDefinition<?, ?>> caps = runtime.capabilities();
      System.out.printf(
          "%-10s %-14s %9s %10s %10s%n", "sandboxes", "capability", "requests", "p50 ms", "max ms");
      try {
        for (int target : new int[] {1, 10, 50}) {
          while (created.size() < target) {
            created.add(sandbox(caps));
          }
          String one = created.getFirst();
          measure(caps, target, "sandbox.list", new SandboxCapabilities.ListInput(), samples);
          measure(caps, target, "sandbox.get", new SandboxCapabilities.NameInput(one), samples);
          measure(
              caps, target, "instance.list", new InstanceCapabilities.SandboxInput(one), samples);
        }
      } finally {
        for (String name : created) {
          new ComputeCalls(runtime).deleteSandbox(name);
        }
      }
    }
  }

  private static String sandbox(List<CapabilityDefinition<?, ?>> caps) {
    String name = IncusHarness.uniqueName("bench");
    IncusHarness.call(
        caps,
        "operator",
        "sandbox.create",
        new SandboxCapabilities.CreateInput(
            Optional.of(name), Optional.empty(), OptionalLong.of(60), Optional.empty()));
    IncusHarness.call(
        caps,
        "operator",
        "instance.create",
        new InstanceCapabilities.CreateInput(
            name,
            "c1",
            "busybox",
            Optional.empty(),
            OptionalLong.empty(),
            OptionalLong.empty(),
            OptionalLong.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.of(false)));
    return name;
  }

  private static void measure(
      List<CapabilityDefinition<?, ?>> caps,
      int sandboxes,
      String name,
      Record input,
      int samples) {
    long[] millis = new long[samples];
    int perCall = 0;
    for (int i = 0; i < samples; i++) {
      requests.set(0);
      long start = System.nanoTime();
      IncusHarness.call(caps, "operator", name, input);
      millis[i] = (System.nanoTime() - start) / 1_000_000;
      perCall = requests.get();
    }
    Arrays.sort(millis);
    System.out.printf(
        "%-10d %-14s %9d %10d %10d%n",
        sandboxes, name, perCall, millis[samples / 2], millis[samples - 1]);
  }
}
