package dev.agentcompute.capabilities.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Looks at Incus independently of the code under test, through the incus CLI. */
final class IncusInspector {
  private final Path socket;
  private final JsonMapper json = JsonMapper.builder().build();

  IncusInspector(Path socket) {
    this.socket = socket;
  }

  JsonNode query(String path) {
    ProcessBuilder pb = new ProcessBuilder("incus", "query", path);
    pb.environment().put("INCUS_DIR", socket.getParent().toString());
    pb.redirectErrorStream(false);
    try {
      Process p = pb.start();
      byte[] out = p.getInputStream().readAllBytes();
      String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor(30, TimeUnit.SECONDS);
      if (p.exitValue() != 0) {
        if (err.contains("not found")) {
          return null;
        }
        throw new IllegalStateException("incus query " + path + ": " + err);
      }
      return json.readTree(out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** How long {@link #awaitGone} waits: a background deletion takes a second or two. */
  static final java.time.Duration GONE_WITHIN = java.time.Duration.ofSeconds(60);

  /**
   * Waits (bounded by {@link #GONE_WITHIN}) until Incus holds neither the sandbox's project nor a
   * network tagged as its: sandbox.delete returns before its deletion finishes in the background.
   * Returns without failing when time runs out; the caller's assertions then say what is left.
   */
  void awaitGone(String sandbox) {
    long deadline = System.nanoTime() + GONE_WITHIN.toNanos();
    while (System.nanoTime() < deadline
        && (projectExists("ac-" + sandbox) || !networksTaggedWith(sandbox).isEmpty())) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  boolean projectExists(String project) {
    return query("/1.0/projects/" + project) != null;
  }

  List<String> networksTaggedWith(String sandbox) {
    List<String> result = new ArrayList<>();
    for (JsonNode n : query("/1.0/networks?recursion=1&all-projects=true")) {
      if (sandbox.equals(n.path("config").path("user.agentcompute.sandbox").asString(""))) {
        result.add(n.path("name").asString());
      }
    }
    return result;
  }

  /** Fingerprints of images stored in {@code project}. */
  List<String> images(String project) {
    List<String> result = new ArrayList<>();
    for (JsonNode image : query("/1.0/images?recursion=1&all-projects=true")) {
      if (project.equals(image.path("project").asString(""))) {
        result.add(image.path("fingerprint").asString());
      }
    }
    return result;
  }

  List<String> instances(String project) {
    List<String> result = new ArrayList<>();
    JsonNode list = query("/1.0/instances?project=" + project);
    if (list != null) {
      list.forEach(n -> result.add(n.asString()));
    }
    return result;
  }
}
