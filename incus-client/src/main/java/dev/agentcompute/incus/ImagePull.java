package dev.agentcompute.incus;

import java.util.List;

/**
 * Pulls an image into the current project from an Incus server (possibly this one, from another
 * project): {@code POST /1.0/images} with an image source in pull mode. The source server must be
 * reachable over HTTPS; {@code secret} comes from {@link Images#secret} for private images.
 */
public record ImagePull(
    String server,
    String certificatePem,
    String fingerprint,
    String secret,
    String sourceProject,
    List<String> aliases) {

  public ImagePull withAliases(List<String> newAliases) {
    return new ImagePull(server, certificatePem, fingerprint, secret, sourceProject, newAliases);
  }
}
