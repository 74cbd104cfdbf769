package dev.agentcompute.capabilities;

import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.compute.ComputeBackend;
import dev.agentcompute.capabilities.compute.ComputeService;
import dev.agentcompute.capabilities.compute.incus.IncusBackend;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.reaper.Reaper;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.ovn.OvnNorthbound;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;

/**
 * The server's front door to compute: loads the catalogue, connects the backend, reconciles catalogue
 * aliases (a missing one fails startup), builds the service and starts the reaper (one scan now, then
 * every {@link ComputeConfig#reaperInterval()}). Close it on shutdown to stop the reaper.
 */
public final class ComputeRuntime implements AutoCloseable {
  private final ComputeService service;
  private final Reaper reaper;

  private ComputeRuntime(ComputeService service, Reaper reaper) {
    this.service = service;
    this.reaper = reaper;
  }

  /** Starts compute over the incusd at {@code incusSocket}. */
  public static ComputeRuntime startIncus(ComputeConfig config, Path incusSocket) {
    return start(config, IncusBackend.overUnixSocket(incusSocket, config), Clock.systemUTC());
  }

  /**
   * Starts compute over an Incus client the caller built: a remote daemon over HTTPS, or one with an
   * {@code onCall} observer counting Incus calls. The caller closes the client after this runtime.
   */
  public static ComputeRuntime startIncus(ComputeConfig config, IncusClient incus) {
    return start(config, IncusBackend.over(incus, config), Clock.systemUTC());
  }

  /**
   * Starts compute over an Incus client and the OVN northbound database (OVN sandboxes: readiness
   * includes the northbound connection, net.inspect reads it). The caller closes both after this runtime.
   */
  public static ComputeRuntime startIncus(ComputeConfig config, IncusClient incus, OvnNorthbound northbound) {
    return start(config, IncusBackend.over(incus, config, northbound), Clock.systemUTC());
  }

  /** Starts compute over any backend (tests use a clock of their own). */
  public static ComputeRuntime start(ComputeConfig config, ComputeBackend backend, Clock clock) {
    ImageCatalog catalog = ImageCatalog.load(config.catalogFile());
    backend.reconcileCatalog(catalog);
    ComputeService service = new ComputeService(backend, config, catalog, clock, new SecureRandom());
    Reaper reaper = new Reaper(service, config.reaperInterval());
    reaper.start();
    return new ComputeRuntime(service, reaper);
  }

  public ComputeService service() {
    return service;
  }

  public Reaper reaper() {
    return reaper;
  }

  /** Readiness: the backend answers, its storage pool and image project exist, and the northbound DB (if given) is connected. */
  public boolean ready() {
    return service.backend().ready();
  }

  /** The capabilities to register with CodeMode. */
  public List<CapabilityDefinition<?, ?>> capabilities() {
    return ComputeCapabilities.definitions(service);
  }

  /** Stops the reaper and releases the backend's connections. */
  @Override
  public void close() {
    reaper.close();
    if (service.backend() instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        throw new IllegalStateException("closing the compute backend failed", e);
      }
    }
  }
}
