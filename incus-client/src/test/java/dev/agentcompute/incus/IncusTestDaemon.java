package dev.agentcompute.incus;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;

/**
 * Finds the shared test incusd and makes unique names. Everything a test creates is named with
 * {@code it-} plus random hex, and deleted by the test that made it.
 */
final class IncusTestDaemon {

  private static final SecureRandom RANDOM = new SecureRandom();

  private IncusTestDaemon() {}

  static Path socket() {
    String fromEnv = System.getenv("AGENTCOMPUTE_INCUS_SOCKET");
    Path socket;
    if (fromEnv != null && !fromEnv.isBlank()) {
      socket = Path.of(fromEnv);
    } else {
      String root = System.getProperty("agentcompute.root");
      if (root == null) {
        throw new IllegalStateException(
            "set AGENTCOMPUTE_INCUS_SOCKET or -Dagentcompute.root to find incusd");
      }
      socket = Path.of(root, ".state", "incus", "unix.socket");
    }
    if (!Files.exists(socket)) {
      throw new IllegalStateException("incusd socket " + socket + " does not exist: run dev/setup");
    }
    return socket;
  }

  static IncusClient client() {
    return IncusClient.unixSocket(socket()).build();
  }

  static String name(String prefix) {
    byte[] bytes = new byte[4];
    RANDOM.nextBytes(bytes);
    return prefix + "-" + HexFormat.of().formatHex(bytes);
  }

  /** 10.203.X.1/24 with X random: test bridges never let Incus pick a subnet. */
  static String subnet() {
    return "10.203." + (1 + RANDOM.nextInt(250)) + ".1/24";
  }

  /** A project that shares the default project's images and profiles (busybox alias, root disk). */
  static String createSharingProject(IncusClient client) {
    String project = name("it");
    client
        .projects()
        .create(
            project,
            "incus-client integration test",
            Map.of("features.images", "false", "features.profiles", "false"));
    return project;
  }

  /** Deletes a test project and every instance in it; used in finally blocks. */
  static void deleteProject(IncusClient client, String project) {
    IncusClient scoped = client.inProject(project);
    try {
      for (Instance instance : scoped.instances().list()) {
        scoped.instances().forceDelete(instance.name());
      }
    } catch (IncusException.NotFound ignored) {
      return;
    }
    client.projects().delete(project);
  }
}
