package dev.agentcompute.server;

import dev.agentcompute.capabilities.ComputeCapabilities;
import dev.agentcompute.server.compute.IncusPreflight;
import dev.agentcompute.server.config.CatalogueCheck;
import dev.agentcompute.server.config.ConfigCheck;
import dev.agentcompute.server.config.ConfigLoader;
import dev.agentcompute.server.config.ConfigReloader;
import dev.agentcompute.server.config.LoadedConfig;
import dev.agentcompute.server.config.ServerConfig;
import dev.agentcompute.server.errors.ConfigException;
import dev.agentcompute.server.errors.UsageException;
import dev.agentcompute.server.http.ListenAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Everything startup checks before it contacts Incus, in one place: {@code validate}, startup and
 * every configuration reload run it, so a configuration {@code validate} accepts does not then fail
 * to start. The file's own rules (ConfigLoader) and the catalogue come first; then the Incus
 * credentials and remote, the {@code sandbox.confirm} capability ids, {@code screenshots.listen}
 * and {@code screenshots.dir}.
 */
final class Preflight implements ConfigCheck {
  private final Map<String, String> env;

  Preflight(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /** A configuration that passed, with its catalogue's digest. */
  record Checked(LoadedConfig loaded, String catalogueDigest) {}

  /** Loads {@code file} as startup does; a ConfigException lists every problem found. */
  Checked load(Path file, CatalogueCheck catalogue) {
    LoadedConfig loaded = ConfigLoader.load(file);
    List<String> problems = new ArrayList<>();
    String digest = null;
    try {
      digest = ConfigReloader.validateCatalogue(loaded.config(), catalogue);
    } catch (ConfigException e) {
      problems.addAll(e.problems());
    }
    problems.addAll(problems(loaded.config()));
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return new Checked(loaded, digest);
  }

  @Override
  public void check(ServerConfig config) {
    List<String> problems = problems(config);
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
  }

  List<String> problems(ServerConfig config) {
    List<String> problems = new ArrayList<>();
    IncusPreflight.check(config.incus(), env, problems);
    confirmIds(config.sandbox().confirm(), problems);
    listen(config.screenshots().listen(), problems);
    directory(config.screenshots().dir(), problems);
    return problems;
  }

  private static void confirmIds(List<String> ids, List<String> problems) {
    List<String> known = ComputeCapabilities.names();
    for (String id : ids) {
      if (!known.contains(id)) {
        String nearest =
            known.stream()
                .min(Comparator.comparingInt(k -> Levenshtein.distance(id, k)))
                .orElse("");
        problems.add(
            "sandbox.confirm: \""
                + id
                + "\" is not a capability id"
                + (Levenshtein.distance(id, nearest) <= Math.max(2, id.length() / 3)
                    ? " (did you mean \"" + nearest + "\"?)"
                    : " (describe_api lists them, e.g. \"" + nearest + "\")"));
      }
    }
  }

  private static void listen(String addr, List<String> problems) {
    try {
      ListenAddress.parse(addr);
    } catch (UsageException e) {
      problems.add("screenshots.listen: " + e.getMessage());
    }
  }

  /** The store takes a directory of its own in it at startup: it must be creatable and writable. */
  private static void directory(Path dir, List<String> problems) {
    Path existing = dir;
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing == null || !Files.isDirectory(existing)) {
      problems.add(
          "screenshots.dir "
              + dir
              + " cannot be used: "
              + (existing == null ? "no part of it exists" : existing + " is not a directory"));
    } else if (!Files.isWritable(existing) || !Files.isExecutable(existing)) {
      problems.add(
          "screenshots.dir "
              + dir
              + " cannot be used: "
              + existing
              + " is not writable by this user");
    }
  }
}
