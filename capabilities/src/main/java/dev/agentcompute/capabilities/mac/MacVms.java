package dev.agentcompute.capabilities.mac;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.Cancellation;
import dev.agentcompute.capabilities.model.Errors;
import dev.agentcompute.lume.LumeClient;
import dev.agentcompute.lume.LumeException;
import dev.agentcompute.lume.LumeVm;
import dev.agentcompute.lume.MacHost;
import dev.agentcompute.lume.ServeLogs;
import dev.agentcompute.lume.VmResources;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The Lume VMs behind Mac instances: the host-wide two-guest budget (checked under one host mutex
 * before any start), preparing a clone (pin, resources), starting with the 12 s run window and the
 * readiness stages, stopping, and deleting exactly the mapped VMs, never a protected seed.
 */
final class MacVms {
  /** Apple's Virtualization framework runs at most two macOS guests per host. */
  static final int GUEST_LIMIT = 2;

  static final Duration POLL = Duration.ofMillis(500);
  static final Duration STOP_TIMEOUT = Duration.ofMinutes(2);

  private final MacHost host;
  private final MacConfig config;
  private final ReentrantLock hostMutex = new ReentrantLock();

  MacVms(MacHost host, MacConfig config) {
    this.host = host;
    this.config = config;
  }

  LumeClient api() {
    return host.api();
  }

  /** The VM, or empty when Lume says it does not exist. */
  Optional<LumeVm> get(String vm) {
    try {
      return Optional.of(MacFailures.call(() -> host.api().getVm(vm)));
    } catch (BackendException e) {
      if (e.isNotFound()) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** Runs {@code body} holding the host mutex, after checking the two-guest budget. */
  <T> T underGuestBudget(java.util.function.Supplier<T> body) {
    try {
      hostMutex.lockInterruptibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Cancellation.canceled(e);
    }
    try {
      long running = MacFailures.call(host::inventory).stream().filter(LumeVm::running).count();
      if (running >= GUEST_LIMIT) {
        throw Errors.of(
            "macOS guest limit reached (2 per host); the owner's macOS VMs share this budget");
      }
      return body.get();
    } finally {
      hostMutex.unlock();
    }
  }

  /** True when the host's inventory lists {@code vm}. */
  Set<String> inventoryNames() {
    return MacFailures.call(host::inventory).stream()
        .map(LumeVm::name)
        .collect(java.util.stream.Collectors.toSet());
  }

  /** Pins the seed's identifier into the clone and applies the resources (disk only to grow). */
  void prepare(Sidecar.Instance instance, long seedDiskBytes) {
    MacFailures.run(() -> host.pinMachineIdentifier(instance.seed(), instance.vm()));
    long current = seedDiskBytes >> 30;
    OptionalLong disk =
        instance.diskGb() > current ? OptionalLong.of(instance.diskGb()) : OptionalLong.empty();
    MacFailures.run(
        () ->
            host.api()
                .setResources(
                    instance.vm(), new VmResources(instance.cpus(), instance.memoryMb(), disk)));
  }

  /**
   * Runs the VM headless with VNC disabled and waits for it to be agent-facing: running within the
   * run window, an address, then {@code /usr/bin/true} over SSH. Call under the guest budget.
   */
  void start(Sidecar.Instance instance, Instant deadline) {
    String vm = instance.vm();
    ServeLogs.Cursor cursor = MacFailures.call(host::serveLogCursor);
    LumeVm seen =
        MacFailures.call(
            () -> host.api().run(vm, LumeClient.RunOptions.HEADLESS, config.runWindow()));
    if (!seen.running()) {
      if (MacFailures.call(() -> host.vmLimitLoggedSince(cursor))) {
        throw Errors.of(
            "Apple's two-guest host-wide macOS VM limit is reached; another account is holding a"
                + " slot");
      }
      throw new BackendException(
          BackendException.Kind.FAILED, "vm " + vm + " stayed stopped after run");
    }
    if (seen.vnc().isPresent()) {
      MacFailures.call(() -> host.api().stop(vm, STOP_TIMEOUT));
      throw Errors.of(
          "vm \"%s\" started a VNC listener despite the \"disabled\" run policy; it was stopped"
              + " again",
          vm);
    }
    waitAgentFacing(instance, deadline);
  }

  /**
   * Polls until the guest runs with an address, its agent answers over SSH and, for desktop images,
   * its desktop session is ready for the Driver ({@link MacDesktopSession}); the timeout's error
   * names the stage still unmet.
   */
  private void waitAgentFacing(Sidecar.Instance instance, Instant deadline) {
    String waiting = "it is not running with an address";
    while (true) {
      LumeVm vm = MacFailures.call(() -> host.api().getVm(instance.vm()));
      if (vm.running() && vm.ip().isPresent()) {
        Optional<String> unmet = unmetStage(instance, vm.ip().get());
        if (unmet.isEmpty()) {
          return;
        }
        waiting = unmet.get();
      }
      if (!Instant.now().isBefore(deadline)) {
        throw new BackendException(
            BackendException.Kind.FAILED,
            "vm " + instance.vm() + " did not become agent-facing: " + waiting);
      }
      Cancellation.sleep(POLL);
    }
  }

  /** The first readiness stage after "running with an address" that the guest does not meet. */
  private Optional<String> unmetStage(Sidecar.Instance instance, String ip) {
    try (var guest = host.guest(ip, instance.seed(), config.guestKey(instance.image()))) {
      if (guest.exec("/usr/bin/true", null, 1024, Duration.ofSeconds(30)).exitCode() != 0) {
        return Optional.of("its agent does not answer over SSH");
      }
      if (!instance.desktop()) {
        return Optional.empty();
      }
      return MacDesktopSession.notReady(guest, host.config().guestPaths())
          .map(reason -> "desktop not ready: " + reason);
    } catch (LumeException e) {
      return Optional.of("its agent does not answer over SSH (" + e.getMessage() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Cancellation.canceled(e);
    }
  }

  void stop(String vm) {
    Optional<LumeVm> current = get(vm);
    if (current.isPresent() && current.get().running()) {
      MacFailures.call(() -> host.api().stop(vm, STOP_TIMEOUT));
    }
  }

  /** Deletes one VM by its exact name; a protected seed is refused. */
  void delete(String vm, String seed) {
    if (vm == null || vm.isEmpty()) {
      return;
    }
    if (vm.equals(seed) || config.protectedSeeds().contains(vm)) {
      throw Errors.of("refusing to delete protected vm \"%s\"", vm);
    }
    stop(vm);
    MacFailures.run(() -> host.api().delete(vm));
  }

  /** The instance's VM, its recovery VMs and its snapshot VMs. */
  void deleteMapped(Sidecar.Instance instance) {
    delete(instance.vm(), instance.seed());
    if (instance.recovery() != null) {
      if (!instance.vm().equals(instance.recovery().previousVm())) {
        delete(instance.recovery().previousVm(), instance.seed());
      }
      if (!instance.vm().equals(instance.recovery().pendingVm())) {
        delete(instance.recovery().pendingVm(), instance.seed());
      }
    }
    for (Sidecar.Snapshot snapshot : instance.snapshots().values()) {
      delete(snapshot.vm(), instance.seed());
    }
  }

  String macAddress(String vm) {
    return MacFailures.call(() -> host.macAddress(vm));
  }
}
