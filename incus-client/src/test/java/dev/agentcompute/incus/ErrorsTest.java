package dev.agentcompute.incus;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import org.junit.jupiter.api.Test;

class ErrorsTest {

  @Test
  void statusesMapToTheirTypes() {
    assertThat(Errors.fromStatus(404, "Instance not found", "GET x"))
        .isInstanceOf(IncusException.NotFound.class)
        .hasMessage("GET x: Instance not found");
    assertThat(Errors.fromStatus(409, "exists", "r")).isInstanceOf(IncusException.Conflict.class);
    assertThat(Errors.fromStatus(412, "ETag doesn't match", "r"))
        .isInstanceOf(IncusException.PreconditionFailed.class);
    assertThat(Errors.fromStatus(403, "not authorized", "r"))
        .isInstanceOf(IncusException.Forbidden.class);
    for (int status : new int[] {502, 503, 504}) {
      assertThat(Errors.fromStatus(status, "", "r"))
          .isInstanceOf(IncusException.Unavailable.class)
          .hasMessage("r: HTTP " + status);
    }
    assertThat(Errors.fromStatus(400, "Invalid config", "r"))
        .isInstanceOf(IncusException.Failed.class)
        .satisfies(e -> assertThat(e.status()).isEqualTo(400));
  }

  @Test
  void textsDecideWhereStatusesDoNot() {
    assertThat(Errors.fromStatus(500, "dial tcp 10.0.0.1:8443: connect: connection refused", "r"))
        .isInstanceOf(IncusException.Unavailable.class);
    assertThat(Errors.fromStatus(500, "UNIQUE constraint failed: projects.name", "r"))
        .isInstanceOf(IncusException.Conflict.class);
    assertThat(Errors.fromOperationFailure("Snapshot \"s\" already exists", "r"))
        .isInstanceOf(IncusException.Conflict.class);
    assertThat(Errors.fromOperationFailure("Failed to start: exit status 1", "r"))
        .isInstanceOf(IncusException.Failed.class);
    assertThat(Errors.fromIo(new ConnectException("Connection refused"), "GET /1.0"))
        .isInstanceOf(IncusException.Unavailable.class)
        .hasMessageContaining("backend unavailable");
  }
}
