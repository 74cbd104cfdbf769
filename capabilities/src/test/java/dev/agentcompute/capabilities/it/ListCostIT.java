package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.adapter.sandbox.SandboxCapabilities;
import dev.agentcompute.incus.IncusClient;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * docs/reference/capabilities.md#sandboxlist-sandboxget: sandbox.list costs a constant number of
 * Incus requests however many sandboxes exist (projects and instances of all projects in one query
 * each), and still counts instances right.
 */
class ListCostIT {
  private static final AtomicInteger requests = new AtomicInteger();
  @RegisterExtension static final RuntimeFixture IT = RuntimeFixture.perClass();

  @BeforeAll
  static void start() {
    IT.start(
        IncusHarness.config(),
        IncusClient.unixSocket(IncusHarness.socket())
            .onCall((method, path, status, nanos) -> requests.incrementAndGet())
            .build());
  }

  private static <O> O call(String name, Record input) {
    return IT.call(name, input);
  }

  private static String sandbox() {
    return IT.sandbox("itlist", OptionalLong.of(30));
  }

  private static int requestsOfOneList() {
    requests.set(0);
    call("sandbox.list", new SandboxCapabilities.ListInput());
    return requests.get();
  }

  @Test
  void listingThreeSandboxesCostsWhatListingOneDoes() {
    String first = sandbox();
    int one = requestsOfOneList();
    sandbox();
    String third = sandbox();
    call(
        "instance.create",
        new InstanceCapabilities.CreateInput(
            third,
            "c1",
            "busybox",
            Optional.empty(),
            OptionalLong.empty(),
            OptionalLong.empty(),
            OptionalLong.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.of(false)));

    assertThat(requestsOfOneList()).isEqualTo(one).isLessThanOrEqualTo(2);
    SandboxCapabilities.ListOutput listed =
        call("sandbox.list", new SandboxCapabilities.ListInput());
    assertThat(listed.items())
        .filteredOn(i -> i.name().equals(third))
        .singleElement()
        .extracting(SandboxCapabilities.ListItem::instances)
        .isEqualTo(1L);
    assertThat(listed.items())
        .filteredOn(i -> i.name().equals(first))
        .singleElement()
        .extracting(SandboxCapabilities.ListItem::instances)
        .isEqualTo(0L);
  }
}
