package dev.agentcompute.lume;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.util.List;
import org.apache.sshd.client.config.hosts.KnownHostEntry;
import org.apache.sshd.client.keyverifier.ServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntryResolver;

/**
 * Strict host-key checking against one known_hosts file, like OpenSSH's {@code
 * StrictHostKeyChecking yes} with {@code GlobalKnownHostsFile /dev/null}: the key must be listed
 * for the name we dialled (or for the alias, as {@code HostKeyAlias} does), nothing is ever added
 * to the file, and an unknown or changed key refuses the connection. MINA's default verifier
 * accepts every key, which is why this exists.
 */
final class KnownHosts implements ServerKeyVerifier {
  private final Path file;
  private final String name;
  private final int port;
  private volatile String refusal = "";

  /**
   * @param name the host name (or {@code HostKeyAlias}) the key must be listed under
   * @param port the port; entries for port 22 are written without brackets
   */
  KnownHosts(Path file, String name, int port) {
    this.file = file;
    this.name = name;
    this.port = port;
  }

  /** Why the last key was refused, empty when none was. */
  String refusal() {
    return refusal;
  }

  @Override
  public boolean verifyServerKey(ClientSession session, SocketAddress remote, PublicKey key) {
    List<KnownHostEntry> entries;
    try {
      entries = KnownHostEntry.readKnownHostEntries(file);
    } catch (IOException e) {
      refusal = "cannot read known_hosts file " + file + ": " + e.getMessage();
      return false;
    }
    boolean listed = false;
    for (KnownHostEntry entry : entries) {
      if (entry.getMarker() != null || !entry.isHostMatch(name, port)) {
        continue; // @cert-authority and @revoked lines are not trust anchors here
      }
      listed = true;
      try {
        PublicKey known =
            entry.getKeyEntry().resolvePublicKey(null, PublicKeyEntryResolver.FAILING);
        if (KeyUtils.compareKeys(known, key)) {
          refusal = "";
          return true;
        }
      } catch (IOException | GeneralSecurityException | RuntimeException unreadable) {
        // An entry we cannot read never vouches for a key.
      }
    }
    String fingerprint = KeyUtils.getFingerPrint(key);
    refusal =
        listed
            ? "host key mismatch for "
                + name
                + ": "
                + fingerprint
                + " is not the key listed in "
                + file
            : "host " + name + " is not in " + file + " (offered key " + fingerprint + ")";
    return false;
  }
}
