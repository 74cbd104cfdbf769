package dev.agentcompute.capabilities.incus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.platform.Platform;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The Incus platform hands the services every port through its {@link IncusPorts} forwarder, so
 * each Incus failure is translated once, by type (IncusPortsTest checks each forwarder forwards and
 * translates every method). A driver wired without its forwarder fails here.
 */
class IncusPlatformPortsTest {
  @Test
  void everyPortThePlatformHandsOutIsItsIncusPortsForwarder() {
    // The platform does not contact incusd until asked: a socket that does not exist will do.
    try (IncusPlatform incus =
        IncusPlatform.overUnixSocket(
            Path.of("/nonexistent/agentcompute-test/incus.socket"), ComputeConfig.defaults())) {
      Platform p = incus.platform();
      List<Object> ports = new ArrayList<>();
      ports.add(p.sandboxes());
      ports.add(p.instances());
      ports.add(p.snapshots());
      for (Optional<?> optional :
          List.of(p.images(), p.networks(), p.ovn(), p.files(), p.processes())) {
        assertThat(optional).as("the Incus platform has this port").isPresent();
        ports.add(optional.get());
      }
      for (Object port : ports) {
        assertThat(port.getClass().getEnclosingClass())
            .as("%s is wrapped in its IncusPorts forwarder", port.getClass().getName())
            .isEqualTo(IncusPorts.class);
      }
    }
  }
}
