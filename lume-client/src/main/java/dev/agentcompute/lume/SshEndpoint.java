package dev.agentcompute.lume;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where and as whom to log in over SSH.
 *
 * @param hostKeyName the name the host key is listed under in {@code knownHosts} (OpenSSH's {@code
 *     HostKeyAlias}; the host itself for the Mac host)
 */
record SshEndpoint(
    String host, int port, String user, Path identity, Path knownHosts, String hostKeyName) {
  SshEndpoint {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(knownHosts, "knownHosts");
    Objects.requireNonNull(hostKeyName, "hostKeyName");
  }
}
