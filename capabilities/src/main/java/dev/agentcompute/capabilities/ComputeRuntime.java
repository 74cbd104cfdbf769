package dev.agentcompute.capabilities;

import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.files.TransferGrants;
import dev.agentcompute.capabilities.files.TransferLimits;
import dev.agentcompute.capabilities.incus.IncusPlatform;
import dev.agentcompute.capabilities.platform.Platform;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import dev.agentcompute.capabilities.platform.ReaperLease;
import dev.agentcompute.capabilities.reaper.Reaper;
import dev.agentcompute.capabilities.screenshots.ScreenshotStore;
import dev.agentcompute.capabilities.service.Compute;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.ovn.OvnNorthbound;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Compute assembled: loads the catalogue, checks every platform has its catalogue images (a missing
 * one fails startup), builds the services over a {@link PlatformRouter} (Incus first) and the
 * reaper. {@link #prepare} leaves the reaper stopped (the server starts it when the generation goes
 * into force); the {@code startIncus} shortcuts start it at once (one scan now, then every {@link
 * ComputeConfig#reaperInterval()}). Close it on shutdown to stop the reaper.
 */
public final class ComputeRuntime implements AutoCloseable {
  private final Compute compute;
  private final Reaper reaper;
  private final List<AutoCloseable> owned;

  private ComputeRuntime(Compute compute, Reaper reaper, List<AutoCloseable> owned) {
    this.compute = compute;
    this.reaper = reaper;
    this.owned = owned;
  }

  /**
   * Builds compute over {@code platforms} in lookup order, for a server alone on its Incus (its
   * reaper needs no lease); {@code owned} are closed with this runtime (platforms that own their
   * connections).
   */
  public static ComputeRuntime prepare(
      ComputeConfig config, List<Platform> platforms, Clock clock, AutoCloseable... owned) {
    return prepare(config, platforms, ReaperLease.ALWAYS, clock, owned);
  }

  /**
   * As {@link #prepare(ComputeConfig, List, Clock, AutoCloseable...)}, with the reaper scanning
   * only while it holds {@code lease} (several servers on one Incus).
   */
  public static ComputeRuntime prepare(
      ComputeConfig config,
      List<Platform> platforms,
      ReaperLease lease,
      Clock clock,
      AutoCloseable... owned) {
    return prepare(config, platforms, lease, clock, Optional.empty(), owned);
  }

  /**
   * As {@link #prepare(ComputeConfig, List, ReaperLease, Clock, AutoCloseable...)}, with desktop
   * screenshots published to {@code screenshots} (which outlives this runtime: a new generation
   * keeps serving the URLs agents were given).
   */
  public static ComputeRuntime prepare(
      ComputeConfig config,
      List<Platform> platforms,
      ReaperLease lease,
      Clock clock,
      Optional<ScreenshotStore> screenshots,
      AutoCloseable... owned) {
    return prepare(
        config,
        platforms,
        lease,
        clock,
        screenshots,
        new TransferGrants(null, TransferLimits.defaults(), clock, new SecureRandom()),
        owned);
  }

  /**
   * As above, with file transfer URLs issued from {@code transfers} (which outlives this runtime,
   * like the screenshot store).
   */
  public static ComputeRuntime prepare(
      ComputeConfig config,
      List<Platform> platforms,
      ReaperLease lease,
      Clock clock,
      Optional<ScreenshotStore> screenshots,
      TransferGrants transfers,
      AutoCloseable... owned) {
    ImageCatalog catalog = ImageCatalog.load(config.catalogFile());
    for (Platform platform : platforms) {
      platform.images().ifPresent(images -> images.reconcile(catalog));
    }
    Compute compute =
        Compute.over(
            new PlatformRouter(platforms),
            config,
            catalog,
            clock,
            new SecureRandom(),
            screenshots,
            transfers);
    Reaper reaper =
        new Reaper(
            compute.sandboxes(), config.reaperInterval(), lease, config.reaperLease(), HOLDER);
    return new ComputeRuntime(compute, reaper, List.of(owned));
  }

  /** This process in the reaper lease: host, pid and a random part (restarts are new holders). */
  private static final String HOLDER =
      ProcessHandle.current().pid()
          + "@"
          + hostName()
          + "/"
          + Long.toHexString(new SecureRandom().nextLong() & 0xffffffffL);

  private static String hostName() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      // A host whose own name does not resolve (a minimal Debian without an /etc/hosts entry for
      // it or nss-myhostname, as the test cluster's members): the kernel's name still says which
      // machine holds the lease.
      return kernelHostName(Path.of("/proc/sys/kernel/hostname"));
    }
  }

  /** The host name in {@code file} (the kernel's), or {@code unknown} when it cannot be read. */
  static String kernelHostName(Path file) {
    try {
      String name = java.nio.file.Files.readString(file).strip();
      return name.isEmpty() ? "unknown" : name;
    } catch (java.io.IOException | RuntimeException e) {
      return "unknown";
    }
  }

  /** How long {@link #close} waits for background deletions. */
  private static final java.time.Duration DELETIONS_ON_CLOSE = java.time.Duration.ofSeconds(60);

  /** Starts the reaper's scans (the first one immediately); returns this runtime. */
  public ComputeRuntime startReaper() {
    reaper.start();
    return this;
  }

  /** Compute over the incusd at {@code incusSocket}, reaper started. */
  public static ComputeRuntime startIncus(ComputeConfig config, Path incusSocket) {
    IncusPlatform incus = IncusPlatform.overUnixSocket(incusSocket, config);
    ComputeRuntime runtime =
        prepare(config, List.of(incus.platform()), incus.reaperLease(), Clock.systemUTC(), incus);
    runtime.reaper().alsoRun(incus.warmPool());
    return runtime.startReaper();
  }

  /**
   * Compute over an Incus client the caller built (a remote daemon over HTTPS, or one with an
   * {@code onCall} observer), reaper started. The caller closes the client after this runtime.
   */
  public static ComputeRuntime startIncus(ComputeConfig config, IncusClient incus) {
    IncusPlatform platform = IncusPlatform.over(incus, config);
    ComputeRuntime runtime =
        prepare(config, List.of(platform.platform()), platform.reaperLease(), Clock.systemUTC());
    runtime.reaper().alsoRun(platform.warmPool());
    return runtime.startReaper();
  }

  /**
   * Compute over an Incus client and the OVN northbound database (OVN sandboxes: readiness includes
   * the northbound connection, net.inspect reads it), reaper started. The caller closes both after
   * this runtime.
   */
  public static ComputeRuntime startIncus(
      ComputeConfig config, IncusClient incus, OvnNorthbound northbound) {
    IncusPlatform platform = IncusPlatform.over(incus, config, northbound);
    ComputeRuntime runtime =
        prepare(config, List.of(platform.platform()), platform.reaperLease(), Clock.systemUTC());
    runtime.reaper().alsoRun(platform.warmPool());
    return runtime.startReaper();
  }

  /** The services, one per concern. */
  public Compute compute() {
    return compute;
  }

  public Reaper reaper() {
    return reaper;
  }

  /** Readiness: every platform answers and its prerequisites exist. */
  public boolean ready() {
    return compute.router().ready();
  }

  /** The capabilities to register with CodeMode. */
  public List<CapabilityDefinition<?, ?>> capabilities() {
    return ComputeCapabilities.definitions(compute);
  }

  /** Stops the reaper, ends the desktop sessions and releases what this runtime owns. */
  @Override
  public void close() {
    // Deletions finishing in the background complete before the clients close (a server stopped
    // without this leaves them to another server's reaper).
    compute.sandboxes().awaitDeletions(DELETIONS_ON_CLOSE);
    reaper.close();
    // Before the platforms' clients close: the sessions' streams run over them.
    compute.desktop().close();
    List<Exception> failures = new ArrayList<>();
    for (AutoCloseable resource : owned) {
      try {
        resource.close();
      } catch (Exception e) {
        failures.add(e);
      }
    }
    if (!failures.isEmpty()) {
      IllegalStateException failure = new IllegalStateException("closing compute failed");
      failures.forEach(failure::addSuppressed);
      throw failure;
    }
  }
}
