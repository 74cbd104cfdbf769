package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.incus.IncusPlatform;
import dev.agentcompute.capabilities.model.Sandbox;
import dev.agentcompute.incus.IncusClient;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The backend over a client the caller built: every Incus call it makes goes through that client
 * (so an {@code onCall} observer counts them all), and closing the backend leaves the client open.
 */
class IncusClientBackendIT {

  @Test
  void everyCallGoesThroughTheCallersClientWhichStaysOpen() {
    List<String> calls = new CopyOnWriteArrayList<>();
    ComputeConfig config = IncusHarness.config();
    try (IncusClient incus =
        IncusClient.unixSocket(IncusHarness.socket())
            .onCall((method, path, status, nanos) -> calls.add(method + " " + path + " " + status))
            .build()) {
      try (ComputeRuntime runtime = ComputeRuntime.startIncus(config, incus)) {
        assertThat(runtime.ready()).isTrue();
        List<Sandbox> sandboxes = runtime.compute().sandboxes().all();
        assertThat(sandboxes).allSatisfy(s -> assertThat(s.platform()).isEqualTo("incus"));
      }
      assertThat(calls)
          .contains(
              "GET /1.0/images/aliases/busybox 200",
              "GET /1.0/storage-pools/" + config.storagePool() + " 200",
              "GET /1.0/projects 200");

      IncusPlatform.over(incus, config).close();
      calls.clear();
      assertThat(incus.info()).isNotNull();
      // Closing waited for the reaper's scan: nothing of the runtime's is recorded after it.
      assertThat(calls).containsExactly("GET /1.0 200");
    }
  }
}
