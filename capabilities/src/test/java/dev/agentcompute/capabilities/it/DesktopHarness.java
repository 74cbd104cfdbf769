package dev.agentcompute.capabilities.it;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.incus.IncusPlatform;
import dev.agentcompute.capabilities.platform.ReaperLease;
import dev.agentcompute.capabilities.screenshots.ScreenshotStore;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Subject;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Compute for the desktop ITs: the desktop test catalogue (busybox-desktop, and the same rootfs
 * catalogued as Windows), a screenshot store, CodeMode over it, and the Incus traffic passing
 * through a relay that records every request (so tests see the exact exec argv Incus received).
 */
final class DesktopHarness implements AutoCloseable {
  static final Subject AGENT = new Subject("agent");

  final Path dir;
  final OvnFaultRelay relay;
  final ScreenshotStore store;
  final ComputeRuntime runtime;
  final Server codeMode;

  private DesktopHarness(
      Path dir, OvnFaultRelay relay, ScreenshotStore store, ComputeRuntime runtime, Server server) {
    this.dir = dir;
    this.relay = relay;
    this.store = store;
    this.runtime = runtime;
    this.codeMode = server;
  }

  static ComputeConfig config() {
    return IncusHarness.config()
        .withCatalogFile(
            IncusHarness.root().resolve("capabilities/src/test/resources/desktop-catalog.yaml"));
  }

  static DesktopHarness start() throws IOException, CodeModeException {
    Path dir = Files.createTempDirectory("desktop-it");
    OvnFaultRelay relay = OvnFaultRelay.start(IncusHarness.socket(), dir);
    ComputeConfig config = config();
    IncusPlatform incus = IncusPlatform.overUnixSocket(relay.socket(), config);
    ScreenshotStore store =
        new ScreenshotStore(
            URI.create("http://127.0.0.1:8081"), Clock.systemUTC(), new SecureRandom());
    ComputeRuntime runtime =
        ComputeRuntime.prepare(
            config,
            List.of(incus.platform()),
            ReaperLease.ALWAYS,
            Clock.systemUTC(),
            Optional.of(store),
            incus);
    Server server = IncusHarness.codeMode(runtime);
    return new DesktopHarness(dir, relay, store, runtime, server);
  }

  /** Runs a program whose {@code %s} are replaced by {@code args}; returns main()'s value. */
  Object run(String program, Object... args) throws CodeModeException {
    return codeMode.execute(Context.background(), AGENT, program.formatted(args));
  }

  /** The client text of a program that must fail. */
  String failure(String program, Object... args) {
    try {
      Object value = run(program, args);
      throw new AssertionError("program succeeded with " + value + ": " + program.formatted(args));
    } catch (CodeModeException e) {
      return e.clientText();
    }
  }

  void deleteSandbox(String name) {
    try {
      runtime.compute().sandboxes().delete(name);
    } catch (RuntimeException e) {
      // already gone
    }
  }

  @Override
  public void close() throws IOException {
    codeMode.close();
    runtime.close();
    relay.close();
    Files.deleteIfExists(dir);
  }
}
