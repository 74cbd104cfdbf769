package dev.agentcompute.capabilities.incus;

import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.capabilities.model.Timestamps;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.incus.IncusException;
import dev.agentcompute.incus.Project;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A sandbox is the restricted project {@code ac-<name>} whose config carries all of its state
 * (expiry, pin, owner, member, bridge reservations): reading, parsing and updating those keys.
 */
final class SandboxProjects {
  private final IncusClient client;
  private final String defaultMember;

  /** {@code client} works in the default project. */
  SandboxProjects(IncusClient client, String defaultMember) {
    this.client = client;
    this.defaultMember = defaultMember;
  }

  /** The sandbox's project, if it exists. */
  Optional<Project> get(String sandbox) {
    try {
      return Optional.of(client.projects().get(Meta.project(sandbox)));
    } catch (IncusException e) {
      if (IncusFailures.isNotFound(e)) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** The sandbox a project holds; empty for projects that are not ours. */
  Optional<Sandbox> parse(Project project) {
    String projectName = project.name() == null ? "" : project.name();
    Map<String, String> cfg = project.config();
    if (!projectName.startsWith(Meta.PROJECT_PREFIX)
        || !"1".equals(cfg.get(Meta.VERSION))
        || cfg.containsKey(Meta.DELETING)) {
      return Optional.empty(); // not ours, or being deleted (no longer a sandbox to agents)
    }
    boolean ovn =
        Set.of("true", "1", "yes", "on").contains(cfg.getOrDefault("features.networks", ""));
    boolean pinned = "true".equals(cfg.get(Meta.PINNED));
    String member = cfg.getOrDefault(Meta.HOST, "");
    return Optional.of(
        new Sandbox(
            projectName.substring(Meta.PROJECT_PREFIX.length()),
            IncusPlatform.NAME,
            Timestamps.parseOrEpoch(cfg.getOrDefault(Meta.CREATED_AT, "")),
            Timestamps.parseOrEpoch(cfg.getOrDefault(Meta.EXPIRES_AT, "")),
            cfg.getOrDefault(Meta.SUBJECT, ""),
            pinned,
            pinned ? cfg.getOrDefault(Meta.PINNED_BY, "") : "",
            pinned ? Timestamps.parseOrEpoch(cfg.getOrDefault(Meta.PINNED_AT, "")) : null,
            ovn ? NetworkKind.OVN : NetworkKind.BRIDGE,
            member.isEmpty() ? defaultMember : member,
            Optional.of(new Reservations(reservations(cfg)))));
  }

  /**
   * The bridge reservations (logical to physical name) of the project a sandbox was read from, kept
   * with it so reading its instances does not read the project again.
   */
  record Reservations(Map<String, String> byLogical) implements Sandbox.Stored {
    Reservations {
      byLogical = Map.copyOf(byLogical);
    }
  }

  /** The ownership, expiry and pin keys of a sandbox. */
  static Map<String, String> metadata(Sandbox sandbox) {
    Map<String, String> meta = new LinkedHashMap<>();
    meta.put(Meta.VERSION, "1");
    meta.put(Meta.CREATED_AT, Timestamps.metadata(sandbox.createdAt()));
    meta.put(Meta.EXPIRES_AT, Timestamps.metadata(sandbox.expiresAt()));
    meta.put(Meta.SUBJECT, sandbox.subject());
    if (sandbox.pinned()) {
      meta.put(Meta.PINNED, "true");
      meta.put(Meta.PINNED_BY, sandbox.pinnedBy());
      meta.put(Meta.PINNED_AT, Timestamps.metadata(sandbox.pinnedAt()));
    }
    return meta;
  }

  /**
   * Read-modify-write of a sandbox project's config with its ETag, retried when someone else wrote.
   */
  void update(String sandbox, Consumer<Map<String, String>> change) {
    client
        .projects()
        .update(
            Meta.project(sandbox),
            current -> {
              Map<String, String> cfg = new LinkedHashMap<>(current.config());
              change.accept(cfg);
              return current.withConfig(cfg);
            });
  }

  /** Logical to physical bridge names reserved by a sandbox. */
  Map<String, String> reservations(String sandbox) {
    return get(sandbox).map(project -> reservations(project.config())).orElseGet(Map::of);
  }

  private static Map<String, String> reservations(Map<String, String> cfg) {
    Map<String, String> result = new LinkedHashMap<>();
    cfg.forEach(
        (key, value) -> {
          if (key.startsWith(Meta.NETWORK_PREFIX)) {
            result.put(key.substring(Meta.NETWORK_PREFIX.length()), value);
          }
        });
    return result;
  }
}
