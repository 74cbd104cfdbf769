package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.incus.IncusClient;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Incus requests of one instance.create (docs/reference/sandbox-pool.md, instance creation),
 * counted and timed by a request observer on the real incusd client: the owner's instances are
 * counted with one request however many sandboxes it has, the new name is checked from the
 * sandbox's listing, and the new instance is started without reading its state first. Prints every
 * request with its start and duration, and the following first exec, as figures.
 */
class CreateRequestsIT {
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final List<String> timed = new CopyOnWriteArrayList<>();
  private volatile long t0;
  @RegisterExtension final RuntimeFixture it = RuntimeFixture.perTest();

  private <O> O call(String name, Record input) {
    return it.call(name, input);
  }

  private String sandbox() {
    return it.sandbox("itcrq", OptionalLong.of(30));
  }

  /** Creates busybox {@code c1} in {@code sandbox}; returns its requests ("METHOD path"). */
  private List<String> createInstance(String sandbox) {
    requests.clear();
    timed.clear();
    t0 = System.nanoTime();
    call("instance.create", InstanceCapabilities.CreateInput.of(sandbox, "c1", "busybox"));
    long createMs = (System.nanoTime() - t0) / 1_000_000;
    List<String> made = List.copyOf(requests);
    List<String> madeTimed = List.copyOf(timed);
    timed.clear();
    ExecResult result =
        call(
            "instance.exec",
            new InstanceCapabilities.ExecInput(
                sandbox,
                "c1",
                "echo hi",
                OptionalLong.of(30),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty()));
    assertThat(result.stdout()).isEqualTo("hi\n");
    long execMs = (System.nanoTime() - t0) / 1_000_000 - createMs;
    System.out.printf(
        "create-requests figures: instance.create %d ms, then the first exec %d ms"
            + " (load average %s); ms from the call's start, duration, request:%n",
        createMs, execMs, loadAverage());
    madeTimed.forEach(r -> System.out.println("  " + r));
    timed.forEach(r -> System.out.println("  exec " + r));
    return made;
  }

  private static String loadAverage() {
    try {
      String[] fields =
          java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (java.io.IOException e) {
      return "?";
    }
  }

  private static long count(List<String> requests, String request) {
    return requests.stream().filter(r -> r.equals(request)).count();
  }

  @Test
  void instanceCreateRequestsDoNotGrowWithTheOwnersSandboxes() {
    IncusClient incus =
        IncusClient.unixSocket(IncusHarness.socket())
            .onCall(
                (method, path, status, nanos) -> {
                  requests.add(method + " " + path + " " + status);
                  timed.add(
                      String.format(
                          "%7.1f %6.1f %s %s %d",
                          (System.nanoTime() - nanos - t0) / 1e6,
                          nanos / 1e6,
                          method,
                          path,
                          status));
                })
            .build();
    it.start(IncusHarness.config(), incus);
    String first = sandbox();
    List<String> alone = createInstance(first);
    for (int i = 0; i < 3; i++) {
      createInstance(sandbox());
    }
    List<String> amongFour = createInstance(sandbox());

    for (List<String> made : List.of(alone, amongFour)) {
      // One listing of the sandbox (name and room), one count over all projects (the owner's).
      assertThat(count(made, "GET /1.0/instances 200")).as("%s", made).isEqualTo(2);
      // The free name is known from the listing: the instance is not looked up before its
      // creation; and, created stopped, it is started without reading its state first.
      List<String> beforeCreate = made.subList(0, made.indexOf("POST /1.0/instances 202"));
      assertThat(beforeCreate).as("%s", made).noneMatch(r -> r.startsWith("GET /1.0/instances/c1"));
      List<String> beforeStart = made.subList(0, made.indexOf("PUT /1.0/instances/c1/state 202"));
      assertThat(beforeStart).as("%s", made).noneMatch(r -> r.contains("/1.0/instances/c1/state"));
    }
  }
}
