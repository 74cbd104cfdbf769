package dev.agentcompute.server.config;

import dev.agentcompute.server.errors.ConfigException;
import dev.agentcompute.server.observe.Log;
import dev.agentcompute.server.observe.ServerMetrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Watches the configuration file and the image catalogue it names. Polling digests (rather than
 * directory events) also catches atomic renames, symlink swaps and git checkouts. A new version is
 * validated in full, and every {@link LiveApplier} prepares it (the compute generation is built
 * then): valid means applied (restart-only keys left pending), invalid or unpreparable means
 * refused and reported while the version in force keeps serving.
 */
public final class ConfigReloader implements AutoCloseable {
  private static final Log LOG = Log.of(ConfigReloader.class);

  private final LiveConfig live;
  private final CatalogueCheck catalogue;
  private final ConfigCheck startupChecks;
  private final List<LiveApplier> appliers;
  private final ServerMetrics metrics;
  private final Duration interval;
  private final Clock clock;
  private volatile String lastSeen;
  private volatile Thread thread;

  public ConfigReloader(
      LiveConfig live,
      CatalogueCheck catalogue,
      List<LiveApplier> appliers,
      ServerMetrics metrics,
      Duration interval,
      Clock clock) {
    this(live, catalogue, config -> {}, appliers, metrics, interval, clock);
  }

  /** {@code startupChecks}: what startup checks beyond the file's rules, run on every version. */
  public ConfigReloader(
      LiveConfig live,
      CatalogueCheck catalogue,
      ConfigCheck startupChecks,
      List<LiveApplier> appliers,
      ServerMetrics metrics,
      Duration interval,
      Clock clock) {
    this.live = live;
    this.catalogue = catalogue;
    this.startupChecks = startupChecks;
    this.appliers = List.copyOf(appliers);
    this.metrics = metrics;
    this.interval = interval;
    this.clock = clock;
    LiveConfig.State s = live.current();
    this.lastSeen = s.source().digest() + "/" + s.catalogueDigest() + policyDigests(s.config());
  }

  /** Loads and checks a configuration and its catalogue; the catalogue digest on success. */
  public static String validateCatalogue(ServerConfig config, CatalogueCheck catalogue) {
    Path file = config.imagesFile();
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new ConfigException(
          "images_file "
              + file
              + ": cannot be read ("
              + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage())
              + ")");
    }
    try {
      catalogue.validate(file);
    } catch (Exception e) {
      throw new ConfigException("images_file " + file + ": " + e.getMessage());
    }
    return Digests.sha256Hex(bytes);
  }

  /** The Rego policy files' digests: an edit to one is a new version, as the file's is. */
  private static String policyDigests(ServerConfig config) {
    StringBuilder out = new StringBuilder();
    config
        .authorization()
        .ifPresent(a -> a.files().forEach(f -> out.append('/').append(digestOrMissing(f))));
    return out.toString();
  }

  public void start() {
    thread =
        Thread.ofVirtual()
            .name("config-reloader")
            .start(
                () -> {
                  while (!Thread.currentThread().isInterrupted()) {
                    try {
                      Thread.sleep(interval);
                      reloadNow();
                    } catch (InterruptedException e) {
                      return;
                    } catch (RuntimeException e) {
                      LOG.error("configuration reload failed", e);
                    }
                  }
                });
  }

  /** Checks once; returns true when a new version was seen (applied or refused). */
  boolean reloadNow() {
    Path file = live.current().source().file();
    String fileDigest = digestOrMissing(file);
    Path images = live.current().config().imagesFile();
    String seen =
        fileDigest + "/" + digestOrMissing(images) + policyDigests(live.current().config());
    if (seen.equals(lastSeen)) {
      return false;
    }
    LoadedConfig next;
    String catalogueDigest;
    List<LiveApplier.Prepared> prepared = new ArrayList<>();
    try {
      next = ConfigLoader.load(file);
      catalogueDigest = validateCatalogue(next.config(), catalogue);
      startupChecks.check(next.config());
      ServerConfig inForce = ConfigChanges.live(live.startup(), next.config());
      for (LiveApplier applier : appliers) {
        prepared.add(applier.prepare(inForce, catalogueDigest));
      }
    } catch (ConfigException e) {
      prepared.forEach(LiveApplier.Prepared::abandon);
      lastSeen = seen;
      live.reject(new LiveConfig.Rejected(fileDigest, e.problems(), clock.instant()));
      metrics.reload("rejected");
      LOG.error(
          "configuration rejected; the previous version keeps serving",
          "digest",
          shortDigest(fileDigest),
          "error",
          String.join("; ", e.problems()));
      return true;
    }
    // Recompute with the new catalogue path, so a changed images_file is tracked from now on.
    lastSeen = next.digest() + "/" + catalogueDigest + policyDigests(next.config());
    ServerConfig before = live.current().config();
    LiveConfig.State state = live.accept(next, catalogueDigest, clock.instant());
    prepared.forEach(LiveApplier.Prepared::commit);
    List<String> changed = ConfigChanges.changedKeys(before, state.config());
    metrics.reload(state.pending().isEmpty() ? "applied" : "pending");
    LOG.info(
        "configuration applied",
        "digest",
        next.shortDigest(),
        "commit",
        next.gitCommit().orElse("none"),
        "changed",
        changed.isEmpty() ? "none" : String.join(",", changed));
    for (LiveConfig.Pending p : state.pending()) {
      LOG.warn("configuration change pending restart", "key", p.key(), "reason", p.reason());
    }
    return true;
  }

  private static String digestOrMissing(Path file) {
    try {
      return Digests.sha256Hex(Files.readAllBytes(file));
    } catch (IOException e) {
      return "missing";
    }
  }

  private static String shortDigest(String digest) {
    return digest.length() >= 12 ? "sha256:" + digest.substring(0, 12) : digest;
  }

  @Override
  public void close() {
    Optional.ofNullable(thread).ifPresent(Thread::interrupt);
  }
}
