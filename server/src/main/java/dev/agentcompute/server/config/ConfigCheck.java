package dev.agentcompute.server.config;

/**
 * The checks startup makes beyond the file's own rules (certificates, remotes, capability ids,
 * listen addresses, directories), without contacting Incus: a reload runs them too, so a version
 * that would not start is refused while the one in force keeps serving.
 */
@FunctionalInterface
public interface ConfigCheck {
  /** Throws a {@link dev.agentcompute.server.errors.ConfigException} listing every problem. */
  void check(ServerConfig config);
}
