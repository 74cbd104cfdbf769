package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.reaper.Reaper;
import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Subject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The acceptance, driven the way an agent drives it: Starlark programs run by the CodeMode
 * engine's execute call the capabilities on the real incusd.
 */
class CodeModeAcceptanceIT {
  private static final Subject OPERATOR = new Subject("operator");
  private static final List<String> created = new ArrayList<>();
  private static ComputeRuntime runtime;
  private static Server server;

  @BeforeAll
  static void start() throws Exception {
    runtime = IncusHarness.start();
    server = IncusHarness.codeMode(runtime);
  }

  @AfterAll
  static void stop() {
    for (String name : created) {
      try {
        new ComputeCalls(runtime).deleteSandbox(name);
      } catch (RuntimeException e) {
        // already gone
      }
    }
    server.close();
    runtime.close();
  }

  private static Object run(Server on, Subject subject, String program) throws CodeModeException {
    return on.execute(Context.background(), subject, program);
  }

  private static String failure(Server on, Subject subject, String program) {
    try {
      run(on, subject, program);
    } catch (CodeModeException e) {
      return e.clientText();
    }
    throw new AssertionError("program succeeded: " + program);
  }

  @Test
  @SuppressWarnings("unchecked")
  void imageListGivesEachStoredImagesSizeSoThatAnAgentCanPickTheSmallest() throws Exception {
    List<Map<String, Object>> items =
        (List<Map<String, Object>>)
            run(
                server,
                OPERATOR,
                "def main():\n    return image.list(platform=\"incus\")[\"items\"]\n");
    IncusInspector incus = new IncusInspector(IncusHarness.socket());
    String project = IncusHarness.config().imageProject();
    assertThat(items).isNotEmpty();
    for (Map<String, Object> item : items) {
      String alias = (String) item.get("name");
      var stored = incus.query("/1.0/images/aliases/" + alias + "?project=" + project);
      if (stored == null) {
        // A catalogue entry fetched on first use is not stored yet: no size to give.
        assertThat(item).doesNotContainKey("size_bytes");
        continue;
      }
      long size =
          incus
              .query("/1.0/images/" + stored.path("target").asString() + "?project=" + project)
              .path("size")
              .asLong();
      assertThat(item).as(alias).containsKey("size_bytes");
      assertThat(((Number) item.get("size_bytes")).longValue()).as(alias).isEqualTo(size);
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void anAgentDrivesASandboxThroughItsLifeAndTheReaperRemovesAnExpiredOne() throws Exception {
    String sb = IncusHarness.uniqueName("itcm");
    String ttl = IncusHarness.uniqueName("itcmttl");
    created.add(sb);
    created.add(ttl);

    Map<String, Object> doomed =
        (Map<String, Object>)
            run(
                server,
                OPERATOR,
                """
        def main():
            s = sandbox.create(name="%s", ttl_minutes=1)
            instance.create(sandbox=s["name"], name="doomed", image="busybox")
            return s
        """
                    .formatted(ttl));
    Instant ttlDeadline = Instant.parse((String) doomed.get("expires_at"));

    Map<String, Object> result =
        (Map<String, Object>)
            run(
                server,
                OPERATOR,
                """
        SB = "%s"

        def address(name):
            instance.wait(sandbox=SB, name=name, until="network", timeout_seconds=60)
            nic = instance.get(sandbox=SB, name=name)["nics"][0]
            return nic["addresses"][0]

        def main():
            s = sandbox.create(name=SB)
            instance.create(sandbox=SB, name="alpha", image="busybox")
            instance.create(sandbox=SB, name="beta", image="busybox")
            address("alpha")
            ping = instance.exec(sandbox=SB, name="alpha", command="ping -c 2 -W 2 " + address("beta"))
            instance.file.write(sandbox=SB, name="alpha", path="/root/note", content="v1")
            first = instance.file.read(sandbox=SB, name="alpha", path="/root/note")["content"]
            instance.snapshot.create(sandbox=SB, name="alpha", snapshot="s1")
            instance.file.write(sandbox=SB, name="alpha", path="/root/note", content="v2")
            instance.snapshot.restore(sandbox=SB, name="alpha", snapshot="s1")
            restored = instance.file.read(sandbox=SB, name="alpha", path="/root/note")["content"]
            instance.file.write(sandbox=SB, name="beta", path="/root/marker", content="from beta")
            instance.stop(sandbox=SB, name="beta")
            instance.publish(sandbox=SB, name="beta", image="golden")
            gamma = instance.create(sandbox=SB, name="gamma", image="golden")
            marker = instance.exec(sandbox=SB, name="gamma", command="cat /root/marker")["stdout"]
            restarted = instance.restart(sandbox=SB, name="gamma")["status"]
            listed = [x for x in sandbox.list()["items"] if x["name"] == SB][0]
            images = [i["name"] for i in image.list(os="busybox", platform="incus")["items"]]
            extended = sandbox.extend(name=SB, ttl_minutes=30)
            pin = sandbox.pin(name=SB, pinned=True)
            return {
                "network": s["network"],
                "ping": ping["exit_code"],
                "first": first,
                "restored": restored,
                "gamma": gamma["status"],
                "marker": marker,
                "expires_at": extended["expires_at"],
                "pin": pin,
                "instances": [i["name"] for i in instance.list(sandbox=SB)["items"]],
                "restarted": restarted,
                "listed": listed,
                "images": images,
            }
        """
                    .formatted(sb));
    Map<String, Object> network = (Map<String, Object>) result.get("network");
    assertThat(network.get("name")).isEqualTo("default");
    assertThat((String) network.get("cidr")).startsWith("10.211.");
    assertThat(result.get("ping")).isEqualTo(0L);
    assertThat(result.get("first")).isEqualTo("v1");
    assertThat(result.get("restored")).isEqualTo("v1");
    assertThat(result.get("gamma")).isEqualTo("Running");
    assertThat(result.get("marker")).isEqualTo("from beta");
    assertThat(result.get("pin")).isEqualTo(Map.of("pinned", true, "pinned_by", "operator"));
    assertThat((List<Object>) result.get("instances"))
        .containsExactlyInAnyOrder("alpha", "beta", "gamma");
    assertThat(result.get("restarted")).isEqualTo("Running");
    assertThat(result.get("images")).isEqualTo(List.of("busybox"));
    Map<String, Object> listed = (Map<String, Object>) result.get("listed");
    assertThat(listed.get("instances")).isEqualTo(3L);
    assertThat(listed.get("platform")).isEqualTo("incus");
    assertThat(listed.get("pinned")).isEqualTo(false);
    Instant expires = Instant.parse((String) result.get("expires_at"));
    assertThat(expires).isAfter(Instant.now().plus(Duration.ofMinutes(29)));

    // Agent-facing errors arrive with their exact text.
    assertThat(
            failure(
                server,
                new Subject("intruder"),
                """
        def main():
            return sandbox.pin(name="%s", pinned=False)
        """
                    .formatted(sb)))
        .isEqualTo("capability failed: pinning requires an operator identity");
    assertThat(
            failure(
                server,
                OPERATOR,
                """
        def main():
            return net.create(sandbox="%s", name="lan", kind="ovn")
        """
                    .formatted(sb)))
        .isEqualTo(
            "capability failed: cannot create a \"ovn\" network in a \"bridge\" sandbox; leave"
                + " kind out to get the sandbox's \"bridge\"");

    // Restart mid-life: a new runtime and engine over the same Incus see TTL, pin and ownership.
    // The runtime comes up two minutes "later" (its clock runs ahead), so the one-minute sandbox
    // has expired for it.
    server.close();
    runtime.close();
    runtime = IncusHarness.startAhead(Duration.ofMinutes(2));
    server = IncusHarness.codeMode(runtime);
    Map<String, Object> seen =
        (Map<String, Object>)
            run(
                server,
                OPERATOR,
                """
        def main():
            return sandbox.get(name="%s")
        """
                    .formatted(sb));
    assertThat(seen.get("pinned")).isEqualTo(true);
    assertThat(seen.get("pinned_by")).isEqualTo("operator");
    assertThat(Instant.parse((String) seen.get("expires_at"))).isEqualTo(expires);
    assertThat(runtime.compute().access().find(sb).orElseThrow().subject()).isEqualTo("operator");

    // The one-minute sandbox has expired; the restarted reaper removes everything of it.
    assertThat(ttlDeadline).isBefore(Instant.now().plus(Duration.ofMinutes(2)));
    Reaper.Scan scan = runtime.reaper().scan();
    assertThat(scan.deleted()).contains(ttl);
    assertThat(scan.pinned()).contains(sb);
    IncusInspector incus = new IncusInspector(IncusHarness.socket());
    // The inspector sees the live sandbox's objects, so the emptiness checks below can fail.
    assertThat(incus.images("ac-" + sb)).hasSize(2);
    assertThat(incus.instances("ac-" + sb)).hasSize(3);
    assertThat(incus.projectExists("ac-" + ttl)).isFalse();
    assertThat(incus.networksTaggedWith(ttl)).isEmpty();
    assertThat(incus.images("ac-" + ttl)).isEmpty();
    assertThat(incus.instances("ac-" + ttl)).isEmpty();
    assertThat(
            failure(
                server,
                OPERATOR,
                """
        def main():
            return sandbox.get(name="%s")
        """
                    .formatted(ttl)))
        .isEqualTo("capability failed: sandbox \"" + ttl + "\" not found");

    // Delete the pinned sandbox: nothing of it is left in Incus.
    run(
        server,
        new Subject("anyone"),
        """
        def main():
            return sandbox.delete(name="%s")
        """
            .formatted(sb));
    incus.awaitGone(sb); // the deletion finishes in the background
    assertThat(incus.projectExists("ac-" + sb)).isFalse();
    assertThat(incus.networksTaggedWith(sb)).isEmpty();
    assertThat(incus.images("ac-" + sb)).isEmpty();
    assertThat(incus.instances("ac-" + sb)).isEmpty();
  }
}
