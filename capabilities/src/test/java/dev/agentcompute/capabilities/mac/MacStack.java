package dev.agentcompute.capabilities.mac;

import dev.agentcompute.capabilities.ComputeCapabilities;
import dev.agentcompute.capabilities.adapter.CodeModeRegistration;
import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import dev.agentcompute.capabilities.screenshots.ScreenshotStore;
import dev.agentcompute.capabilities.service.Compute;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Limits;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.lume.GuestDouble;
import dev.agentcompute.lume.MacHost;
import dev.agentcompute.lume.MacHostDouble;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The CodeMode engine over the mac platform over the Mac host double: what the mac tests drive.
 * {@link #restart()} builds a new engine, services and host connection over the same host, as a
 * server restart would.
 */
final class MacStack implements AutoCloseable {
  static final String IMAGE = GuestDouble.IMAGE;
  static final String CATALOG = GuestDouble.CATALOG;
  static final Subject OPERATOR = new Subject("op");

  final MacHostDouble mac;
  final ScreenshotStore screenshots =
      new ScreenshotStore(
          URI.create("http://127.0.0.1:8081"), Clock.systemUTC(), new SplittableRandom(3));
  MacPlatform platform;
  Server server;

  /** How long a start may take to be agent-facing (the real budget is 10 minutes). */
  final Duration createBudget;

  MacStack(Path dir) throws Exception {
    this(dir, Duration.ofSeconds(60));
  }

  MacStack(Path dir, Duration createBudget) throws Exception {
    this.createBudget = createBudget;
    mac = new MacHostDouble(dir);
    mac.lume.addVm(GuestDouble.SEED, 4, 8L << 30, 100L << 30);
    mac.lume.bootDelayMillis = 100;
    server = serve();
  }

  private Server serve() throws Exception {
    platform =
        MacPlatform.over(
            MacHost.of(mac.config()),
            new MacConfig(
                Map.of(IMAGE, mac.guest.keyFile()),
                Set.of(GuestDouble.SEED),
                Duration.ofSeconds(2),
                createBudget));
    Compute compute =
        Compute.over(
            new PlatformRouter(List.of(platform.platform())),
            ComputeConfig.defaults().withPinIdentities(Set.of("op")),
            ImageCatalog.parse(CATALOG),
            Clock.systemUTC(),
            new SplittableRandom(1),
            Optional.of(screenshots));
    return CodeModeRegistration.register(
            CodeMode.builder(
                Options.builder()
                    .authorizer((ctx, request) -> {})
                    // One worker serves every program of the test (reuse): the mac tests are about
                    // the platform, and a fresh worker JVM per program cost them 16 s of CPU.
                    .limits(
                        Limits.unset()
                            .with("MaxExecutionTime", "5m")
                            .withWorkerReuse(1_000, Duration.ofMinutes(5)))
                    .build()),
            ComputeCapabilities.definitions(compute))
        .build();
  }

  void restart() throws Exception {
    server.close();
    platform.close();
    server = serve();
  }

  Object run(String program) throws CodeModeException {
    return server.execute(Context.background(), OPERATOR, program);
  }

  /** The client text of a program that must fail. */
  String failure(String program) {
    try {
      run(program);
    } catch (CodeModeException e) {
      return e.clientText();
    }
    throw new AssertionError("program succeeded: " + program);
  }

  /** {@code main()} returning {@code expression}. */
  Object eval(String expression) throws CodeModeException {
    return run("def main():\n    return " + expression + "\n");
  }

  String evalFailure(String expression) {
    return failure("def main():\n    return " + expression + "\n");
  }

  void createSandboxWithGuest(String sandbox, String instance) throws Exception {
    run(
        """
        def main():
            sandbox.create(name="%s", platform="mac")
            instance.create(sandbox="%s", name="%s", image="%s")
        """
            .formatted(sandbox, sandbox, instance, IMAGE));
  }

  @Override
  public void close() throws Exception {
    server.close();
    platform.close();
    mac.close();
  }
}
