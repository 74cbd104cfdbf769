package dev.agentcompute.capabilities.platform;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.NetworkKind;
import dev.agentcompute.capabilities.model.Sandbox;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A platform without streamed files refuses their capabilities by name and platform. */
@Timeout(10)
class FileDriverRoutingTest {
  @Test
  void aPlatformWithoutAFileApiRefusesNamingTheCapabilityAndThePlatform() {
    Platform mac =
        new Platform(
            "mac",
            () -> true,
            null,
            null,
            null,
            Optional.empty(),
            Optional.empty(),
            Optional.empty());
    Sandbox sandbox =
        new Sandbox(
            "sb",
            "mac",
            Instant.EPOCH,
            Instant.MAX,
            "alice",
            false,
            "",
            null,
            NetworkKind.values()[0],
            "");
    assertThatThrownBy(
            () -> new PlatformRouter(List.of(mac)).files(sandbox, "instance.file.upload_url"))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage(
            "instance.file.upload_url is unsupported on platform mac: only Incus sandboxes have a"
                + " file API to stream through; use instance.exec there");
  }
}
