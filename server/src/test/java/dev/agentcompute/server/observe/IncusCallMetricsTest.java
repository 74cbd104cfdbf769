package dev.agentcompute.server.observe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IncusCallMetricsTest {

  @Test
  void objectNamesBecomePlaceholdersAndApiWordsStay() {
    assertThat(IncusCallMetrics.template("/1.0")).isEqualTo("/1.0");
    assertThat(IncusCallMetrics.template("/1.0/instances/c1/snapshots/s0"))
        .isEqualTo("/1.0/instances/{name}/snapshots/{name}");
    assertThat(IncusCallMetrics.template("/1.0/images/aliases/busybox"))
        .isEqualTo("/1.0/images/aliases/{name}");
    assertThat(IncusCallMetrics.template("/1.0/images/0123abcd/export"))
        .isEqualTo("/1.0/images/{name}/export");
    assertThat(IncusCallMetrics.template("/1.0/operations/5e1c-77/wait"))
        .isEqualTo("/1.0/operations/{name}/wait");
    assertThat(IncusCallMetrics.template("/1.0/storage-pools/default"))
        .isEqualTo("/1.0/storage-pools/{name}");
  }

  @Test
  void outcomesAreFailureClasses() {
    assertThat(IncusCallMetrics.outcome(200)).isEqualTo("ok");
    assertThat(IncusCallMetrics.outcome(202)).isEqualTo("ok");
    assertThat(IncusCallMetrics.outcome(0)).isEqualTo("unreachable");
    assertThat(IncusCallMetrics.outcome(404)).isEqualTo("not_found");
    assertThat(IncusCallMetrics.outcome(409)).isEqualTo("conflict");
    assertThat(IncusCallMetrics.outcome(412)).isEqualTo("precondition_failed");
    assertThat(IncusCallMetrics.outcome(403)).isEqualTo("forbidden");
    assertThat(IncusCallMetrics.outcome(400)).isEqualTo("client_error");
    assertThat(IncusCallMetrics.outcome(500)).isEqualTo("server_error");
  }

  @Test
  void eachCallIsCountedUnderItsTemplate() {
    String operation = "DELETE /1.0/instances/{name}";
    ServerMetrics metrics = ServerMetrics.inMemory();
    IncusCallMetrics observer = new IncusCallMetrics(metrics);
    observer.onCall("DELETE", "/1.0/instances/c1", 202, 1_000_000);
    observer.onCall("DELETE", "/1.0/instances/c2", 200, 1_000_000);
    observer.onCall("DELETE", "/1.0/instances/c3", 404, 1_000_000);
    assertThat(metrics.count("agentcompute.incus.calls", "operation", operation, "outcome", "ok"))
        .isEqualTo(2);
    assertThat(
            metrics.count(
                "agentcompute.incus.calls", "operation", operation, "outcome", "not_found"))
        .isEqualTo(1);
  }
}
