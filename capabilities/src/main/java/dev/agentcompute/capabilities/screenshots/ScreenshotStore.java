package dev.agentcompute.capabilities.screenshots;

import dev.agentcompute.capabilities.model.Errors;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * The transient screenshot store (docs/reference/capabilities.md#screenshot-store): desktop
 * captures are published here and agents get only URLs ({@code <base_url>/screenshots/<32 hex>});
 * the ids are the capability (128 random bits), so the HTTP route needs no bearer token. Bounded
 * per image and in total; when full, new publications are refused and nothing is evicted, so a URL
 * an agent holds stays valid until it expires: after five minutes, or when its sandbox expires if
 * that is sooner, or when its sandbox is deleted or reaped.
 *
 * <p>{@link #inDirectory} keeps the images as files in a scratch directory and only their index in
 * memory (the server's store: up to 128 MiB stays off the heap); the plain constructor keeps them
 * in memory. Either way a restart forgets every screenshot, which retention allows.
 */
public final class ScreenshotStore implements AutoCloseable {
  public static final int MAX_IMAGE_BYTES = 16 * 1024 * 1024;
  public static final long MAX_TOTAL_BYTES = 128L * 1024 * 1024;
  public static final long MAX_PIXELS = 32L * 1024 * 1024;
  public static final Duration RETENTION = Duration.ofMinutes(5);

  /** Where the route lives under the base URL. */
  public static final String PATH = "/screenshots/";

  /** {@code screenshots.base_url}, or the listener's URL once {@link #servedAt} was told it. */
  private volatile URI baseUrl;

  private final Clock clock;
  private final RandomGenerator random;
  private final Map<String, Screenshot> byId = new LinkedHashMap<>();
  private final PngFiles files;
  private long totalBytes;

  /**
   * @param baseUrl {@code screenshots.base_url} (absolute http or https), or null: the URL of the
   *     listener that serves the store, given to {@link #servedAt} once it runs
   * @param random a cryptographically strong generator in production: ids are bearer capabilities
   */
  public ScreenshotStore(URI baseUrl, Clock clock, RandomGenerator random) {
    this(baseUrl, clock, random, PngFiles.inMemory());
  }

  private ScreenshotStore(URI baseUrl, Clock clock, RandomGenerator random, PngFiles files) {
    this.baseUrl = baseUrl;
    this.clock = clock;
    this.random = random;
    this.files = files;
  }

  /**
   * A store whose images are files in a directory of its own under {@code parent} ({@code
   * .agentcompute-screenshots-<pid>-<random>}), removed on {@link #close}. Any number of stores, in
   * this process or others, can share {@code parent}.
   *
   * @throws IOException when the directory cannot be created, locked or cleared
   */
  public static ScreenshotStore inDirectory(
      Path parent, URI baseUrl, Clock clock, RandomGenerator random) throws IOException {
    return new ScreenshotStore(baseUrl, clock, random, ScratchDirectory.take(parent, random));
  }

  /** Where the images are kept, when on disk. */
  public Optional<Path> directory() {
    return files.directory();
  }

  /**
   * One stored image and what the HTTP route and the MCP resource need to serve it; {@code png} is
   * attached by {@link #publish} and {@link #find} (the index holds no bytes).
   */
  public record Screenshot(
      String id,
      String sandbox,
      byte[] png,
      int size,
      int width,
      int height,
      Instant createdAt,
      Instant expiresAt,
      String owner) {
    Screenshot withoutBytes() {
      return new Screenshot(id, sandbox, null, size, width, height, createdAt, expiresAt, owner);
    }

    Screenshot with(byte[] bytes) {
      return new Screenshot(id, sandbox, bytes, size, width, height, createdAt, expiresAt, owner);
    }
  }

  /**
   * Validates and stores {@code png} for {@code sandbox}.
   *
   * @param sandboxExpiry when the sandbox expires, or {@code null} when it is pinned (then only the
   *     five minutes bound it)
   */
  public Screenshot publish(String sandbox, Instant sandboxExpiry, byte[] png) {
    return publish(sandbox, "", sandboxExpiry, png, MAX_TOTAL_BYTES);
  }

  /**
   * As {@link #publish(String, Instant, byte[])}, charging {@code png} to the identity {@code
   * owner} (the sandbox's owner), which may hold at most {@code ownerShare} bytes of the store
   * ({@code sandbox.identity_limits.screenshot_mb}), so that no identity can fill the store for
   * everyone.
   */
  public synchronized Screenshot publish(
      String sandbox, String owner, Instant sandboxExpiry, byte[] png, long ownerShare) {
    if (png.length > MAX_IMAGE_BYTES) {
      throw Errors.of(
          "screenshot of %d bytes exceeds the %d byte limit", png.length, MAX_IMAGE_BYTES);
    }
    PngHeader header = PngHeader.parse(png);
    sweep();
    if (totalBytes + png.length > MAX_TOTAL_BYTES) {
      throw Errors.of(
          "the screenshot store is full (%d MiB); retry after older screenshots expire",
          MAX_TOTAL_BYTES / (1024 * 1024));
    }
    long held = bytesOf(owner);
    if (held + png.length > ownerShare) {
      throw Errors.of(
          "identity \"%s\" already holds %d of its %d bytes of screenshots"
              + " (sandbox.identity_limits.screenshot_mb); retry after older screenshots expire",
          owner, held, ownerShare);
    }
    Instant now = clock.instant();
    Instant expires = now.plus(RETENTION);
    if (sandboxExpiry != null && sandboxExpiry.isBefore(expires)) {
      expires = sandboxExpiry;
    }
    String id = newId();
    Screenshot shot =
        new Screenshot(
            id,
            sandbox,
            png.clone(),
            png.length,
            header.width(),
            header.height(),
            now,
            expires,
            owner);
    files.write(id, shot.png());
    byId.put(id, shot.withoutBytes());
    totalBytes += png.length;
    return shot;
  }

  /** A PNG's dimensions. */
  public record Size(int width, int height) {}

  /** The dimensions of {@code png}, validated as {@link #publish} validates (nothing is stored). */
  public static Size size(byte[] png) {
    PngHeader header = PngHeader.parse(png);
    return new Size(header.width(), header.height());
  }

  /**
   * Tells a store without a configured base URL where it is served ({@code http://host:port} of the
   * listener that really runs, known only once it is bound); a configured base URL is kept.
   */
  public void servedAt(URI listenerUrl) {
    if (baseUrl == null) {
      baseUrl = listenerUrl;
    }
  }

  /** The URL agents fetch a screenshot from. */
  public URI url(String id) {
    URI configured = baseUrl;
    if (configured == null) {
      throw new IllegalStateException("the screenshot listener is not running yet");
    }
    String base = configured.toString();
    while (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return URI.create(base + PATH + id);
  }

  /** The path the route serves, relative to the server root ({@code /screenshots} or below). */
  public String routePrefix() {
    URI configured = baseUrl;
    String path =
        configured == null || configured.getRawPath() == null ? "" : configured.getRawPath();
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    return path + PATH.substring(0, PATH.length() - 1);
  }

  /** A live screenshot (an expired one is gone, as if it had never been). */
  public synchronized Optional<Screenshot> find(String id) {
    Screenshot shot = byId.get(id);
    if (shot == null) {
      return Optional.empty();
    }
    if (!clock.instant().isBefore(shot.expiresAt())) {
      remove(id);
      return Optional.empty();
    }
    byte[] png = files.read(id);
    return png == null ? Optional.empty() : Optional.of(shot.with(png));
  }

  /** Every live screenshot, oldest first, without its bytes (the operators' console lists them). */
  public synchronized java.util.List<Screenshot> live() {
    Instant now = clock.instant();
    return byId.values().stream().filter(s -> now.isBefore(s.expiresAt())).toList();
  }

  /** Forgets every screenshot of a sandbox (deleted or reaped); returns how many. */
  public synchronized int purge(String sandbox) {
    int before = byId.size();
    byId.values().removeIf(s -> s.sandbox().equals(sandbox) && forget(s));
    return before - byId.size();
  }

  /** Forgets expired screenshots; returns how many. */
  public synchronized int sweep() {
    Instant now = clock.instant();
    int before = byId.size();
    byId.values().removeIf(s -> !now.isBefore(s.expiresAt()) && forget(s));
    return before - byId.size();
  }

  /** Bytes {@code owner}'s screenshots hold now. */
  public synchronized long bytesOf(String owner) {
    long held = 0;
    for (Screenshot shot : byId.values()) {
      if (shot.owner().equals(owner)) {
        held += shot.size();
      }
    }
    return held;
  }

  /** Bytes held now. */
  public synchronized long totalBytes() {
    return totalBytes;
  }

  private void remove(String id) {
    Screenshot shot = byId.remove(id);
    if (shot != null) {
      forget(shot);
    }
  }

  private boolean forget(Screenshot shot) {
    totalBytes -= shot.size();
    files.delete(shot.id());
    return true;
  }

  /** Forgets every screenshot; a store in a directory empties it and gives its lock up. */
  @Override
  public synchronized void close() {
    byId.clear();
    totalBytes = 0;
    files.close();
  }

  private String newId() {
    byte[] bytes = new byte[16];
    while (true) {
      for (int i = 0; i < bytes.length; i += 8) {
        long r = random.nextLong();
        for (int j = 0; j < 8; j++) {
          bytes[i + j] = (byte) (r >>> (8 * j));
        }
      }
      String id = HexFormat.of().formatHex(bytes);
      if (!byId.containsKey(id)) {
        return id;
      }
    }
  }
}
