package dev.agentcompute.capabilities.adapter;

import dev.agentcompute.capabilities.ComputeCapabilities;
import dev.agentcompute.capabilities.catalog.ImageCatalog;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.incus.IncusPlatform;
import dev.agentcompute.capabilities.platform.PlatformRouter;
import dev.agentcompute.capabilities.service.Compute;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Every compute capability, registered over an Incus platform whose socket does not exist:
 * building, describing and searching call no handler, so the backend is never contacted.
 */
final class OfflineCatalogue {
  private OfflineCatalogue() {}

  static List<CapabilityDefinition<?, ?>> definitions() {
    return definitions(ComputeConfig.defaults());
  }

  /** Every capability of a server configured with {@code config}. */
  static List<CapabilityDefinition<?, ?>> definitions(ComputeConfig config) {
    Compute compute =
        Compute.over(
            new PlatformRouter(
                List.of(
                    IncusPlatform.overUnixSocket(Path.of("/nonexistent.sock"), config).platform())),
            config,
            ImageCatalog.parse("schema_version: 1\nimages: []\n"),
            Clock.systemUTC(),
            new SplittableRandom(1));
    return ComputeCapabilities.definitions(compute);
  }

  /** A CodeMode server of {@code definitions} that allows every call. */
  static Server server(List<CapabilityDefinition<?, ?>> definitions) throws CodeModeException {
    return CodeModeRegistration.register(
            CodeMode.builder(Options.builder().authorizer((ctx, request) -> {}).build()),
            definitions)
        .build();
  }
}
