package dev.agentcompute.capabilities.hostile;

import static dev.agentcompute.capabilities.hostile.Hostile.sh;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.config.Quotas;
import dev.agentcompute.capabilities.incus.LocalIncus;
import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.model.InstanceAction;
import dev.agentcompute.capabilities.service.Compute;
import dev.agentcompute.capabilities.service.InstanceService;
import dev.agentcompute.incus.IncusClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A hostile agent tries to take more than its share: a fork bomb, a memory hog, an instance above
 * the maxima, one sandbox too many. Each runs only on a runtime whose limits are already set (the
 * fork bomb's container has {@code limits.processes} of {@value #PROCESSES} before the bomb
 * starts), and each is bounded, so a failure cannot take the machine down.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class QuotaContainmentIT {
  static final int PROCESSES = 200;
  private static final int PER_IDENTITY = 2;

  private static ComputeRuntime runtime;
  private static Compute compute;
  private static final List<String> sandboxes = Collections.synchronizedList(new ArrayList<>());
  private static String sb;

  @BeforeAll
  static void start() {
    runtime =
        Hostile.start(
            Hostile.config(Hostile.PROTECTED)
                .withQuotas(
                    Quotas.defaults()
                        .withProcesses(PROCESSES)
                        .withSandboxesPerIdentity(PER_IDENTITY)));
    compute = runtime.compute();
    sb = create("mallory");
  }

  private static String create(String owner) {
    String name = Hostile.unique("hxq");
    compute.sandboxes().create(owner, name, null, 30, false);
    sandboxes.add(name);
    return name;
  }

  @AfterAll
  static void stop() {
    try {
      for (String s : sandboxes) {
        try {
          compute.sandboxes().delete(s);
        } catch (RuntimeException e) {
          // already gone
        }
      }
    } finally {
      runtime.close();
    }
  }

  private static InstanceService.CreateOptions sized(Long cpus, Long memoryMb) {
    return new InstanceService.CreateOptions(null, cpus, memoryMb, null, null, null, true);
  }

  @Test
  void aForkBombStopsAtLimitsProcessesWhileTheServerAnswers() throws Exception {
    compute.instances().create(sb, "bomb", "busybox", sized(null, null));
    List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
    AtomicLong peak = new AtomicLong();
    AtomicBoolean bombing = new AtomicBoolean(true);
    Thread prober;
    ExecResult bomb;
    try (IncusClient incus = IncusClient.unixSocket(LocalIncus.socket()).build()) {
      var instances = incus.inProject("ac-" + sb).instances();
      // The server answers agents while the bomb runs, and Incus counts the container's processes.
      prober =
          Thread.ofVirtual()
              .start(
                  () -> {
                    while (bombing.get()) {
                      long t0 = System.nanoTime();
                      compute.instances().get(sb, "bomb");
                      latencies.add((System.nanoTime() - t0) / 1_000_000);
                      peak.accumulateAndGet(instances.state("bomb").processes(), Math::max);
                      Hostile.sleep(Duration.ofMillis(100));
                    }
                  });
      try {
        // Every bomb process forks forever; its output goes nowhere, so the exec returns after
        // 8 s and counts the processes then with shell builtins alone (no fork is left).
        bomb =
            sh(
                compute,
                sb,
                "bomb",
                60,
                "sleep 8 & s=$!; (f(){ while :; do f | f & done; }; f) >/dev/null 2>&1 </dev/null &"
                    + " wait $s; n=0; for p in /proc/[0-9]*; do n=$((n+1)); done; echo $n");
      } finally {
        bombing.set(false);
        prober.join(30_000);
        compute.instances().changeState(sb, "bomb", InstanceAction.STOP, true);
      }
    }
    long inside = Long.parseLong(bomb.stdout().trim());
    peak.accumulateAndGet(inside, Math::max);
    List<Long> sorted = latencies.stream().sorted().toList();
    long p99 = sorted.isEmpty() ? -1 : sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1);
    System.out.printf(
        "hostile figures: fork bomb held at %d processes (limit %d, %d counted inside at 8 s);"
            + " server instance.get p99 %d ms, max %d ms over %d calls meanwhile%n",
        peak.get(),
        PROCESSES,
        inside,
        p99,
        sorted.isEmpty() ? -1 : sorted.getLast(),
        sorted.size());
    // The bomb was real (it reached the limit) and the limit held it.
    assertThat(peak.get()).isBetween((long) PROCESSES * 3 / 4, (long) PROCESSES);
    assertThat(sorted).hasSizeGreaterThan(5);
    assertThat(p99).isLessThan(10_000);
  }

  @Test
  void aMemoryHogIsOomKilledInsideItsLimit() {
    compute.instances().create(sb, "hog", "busybox", sized(null, 64L));
    ExecResult hog =
        sh(
            compute,
            sb,
            "hog",
            60,
            "x=$(head -c 200000000 /dev/zero | tr '\\000' a); echo survived ${#x}");
    System.out.printf(
        "hostile figures: memory hog in a 64 MiB limit ended with exit %d (SIGKILL from the OOM"
            + " killer)%n",
        hog.exit_code());
    assertThat(hog.stdout()).doesNotContain("survived");
    assertThat(hog.exit_code()).isEqualTo(137);
    // Only the hog died: its instance still runs commands.
    assertThat(sh(compute, sb, "hog", 10, "echo alive").stdout().trim()).isEqualTo("alive");
    assertThat(compute.instances().get(sb, "hog").isRunning()).isTrue();
  }

  @Test
  void instancesAboveTheMaximaAreRefusedNamingTheLimit() {
    assertThatThrownBy(() -> compute.instances().create(sb, "big", "busybox", sized(256L, null)))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage("cpus 256 exceeds the maximum of 4 (instance.max_cpus)");
    assertThatThrownBy(
            () -> compute.instances().create(sb, "big", "busybox", sized(null, 1_048_576L)))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage("memory_mb 1048576 exceeds the maximum of 8192 (instance.max_memory_mb)");
  }

  @Test
  void anIdentitysSandboxBeyondItsCapIsRefused() {
    for (int i = 0; i < PER_IDENTITY; i++) {
      create("carol");
    }
    assertThatThrownBy(() -> create("carol"))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage(
            "identity \"carol\" already has "
                + PER_IDENTITY
                + " live sandboxes (sandbox.max_per_identity)");
    // Another identity is not held back by carol's sandboxes.
    create("dave");
  }
}
