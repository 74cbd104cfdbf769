package dev.agentcompute.capabilities.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.files.TransferGrants.Direction;
import dev.agentcompute.capabilities.files.TransferGrants.Grant;
import dev.agentcompute.capabilities.model.AgentFacingException;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class TransferGrantsTest {
  private final MutableClock clock = new MutableClock();
  private final TransferGrants grants =
      new TransferGrants(
          URI.create("https://files.example/base/"),
          new TransferLimits(1024, Duration.ofMinutes(5), 2, Duration.ofMinutes(1)),
          clock,
          new SecureRandom());

  @Test
  void aUrlCarriesAnUnguessableTokenUnderTheBasePath() {
    Grant g = grants.issue("alice", "sb", "web", "/root/a", Direction.DOWNLOAD, null);
    assertThat(g.token()).matches("[0-9a-f]{32}");
    assertThat(grants.url(g).toString()).isEqualTo("https://files.example/base/files/" + g.token());
    assertThat(grants.routePrefix()).isEqualTo("/base/files");
    assertThat(g.expiresAt()).isEqualTo(clock.instant().plus(Duration.ofMinutes(5)));
  }

  @Test
  void aUrlIsUsedOnceAndOnlyByItsIdentityAndDirection() {
    Grant g = grants.issue("alice", "sb", "web", "/root/a", Direction.UPLOAD, 0644);
    assertThat(grants.claim(g.token(), "bob", Direction.UPLOAD)).isEmpty();
    assertThat(grants.peek(g.token(), "bob")).isEmpty();
    assertThat(grants.claim(g.token(), "alice", Direction.DOWNLOAD)).isEmpty();
    assertThat(grants.peek(g.token(), "alice")).contains(Direction.UPLOAD);
    assertThat(grants.claim(g.token(), "alice", Direction.UPLOAD)).contains(g);
    assertThat(grants.claim(g.token(), "alice", Direction.UPLOAD)).isEmpty();
    assertThat(grants.outstanding()).isZero();
  }

  @Test
  void anExpiredUrlIsGoneAsIfItNeverExisted() {
    Grant g = grants.issue("alice", "sb", "web", "/root/a", Direction.DOWNLOAD, null);
    clock.advance(Duration.ofMinutes(5));
    assertThat(grants.peek(g.token(), "alice")).isEmpty();
    assertThat(grants.claim(g.token(), "alice", Direction.DOWNLOAD)).isEmpty();
    assertThat(grants.claim("0".repeat(32), "alice", Direction.DOWNLOAD)).isEmpty();
  }

  @Test
  void anIdentityHoldsAtMostItsLimitOfUnusedUrlsNamedInTheRefusal() {
    grants.issue("alice", "sb", "web", "/a", Direction.DOWNLOAD, null);
    Grant second = grants.issue("alice", "sb", "web", "/b", Direction.DOWNLOAD, null);
    assertThatThrownBy(() -> grants.issue("alice", "sb", "web", "/c", Direction.DOWNLOAD, null))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage(
            "identity holds 2 unused file transfer URLs (limit files.max_urls_per_identity = 2);"
                + " use or let some expire (after 300 s) first");
    // Another identity has its own allowance; using a URL frees one; so does expiry.
    grants.issue("bob", "sb", "web", "/a", Direction.DOWNLOAD, null);
    grants.claim(second.token(), "alice", Direction.DOWNLOAD);
    grants.issue("alice", "sb", "web", "/c", Direction.DOWNLOAD, null);
    clock.advance(Duration.ofMinutes(6));
    grants.issue("alice", "sb", "web", "/d", Direction.DOWNLOAD, null);
    grants.issue("alice", "sb", "web", "/e", Direction.DOWNLOAD, null);
  }

  @Test
  void deletingASandboxForgetsItsUrls() {
    Grant g = grants.issue("alice", "sb", "web", "/a", Direction.DOWNLOAD, null);
    grants.issue("alice", "other", "web", "/a", Direction.DOWNLOAD, null);
    assertThat(grants.purge("sb")).isEqualTo(1);
    assertThat(grants.claim(g.token(), "alice", Direction.DOWNLOAD)).isEmpty();
    assertThat(grants.outstanding()).isEqualTo(1);
  }

  @Test
  void tokensDoNotRepeat() {
    TransferGrants many =
        new TransferGrants(
            URI.create("http://127.0.0.1:1"),
            new TransferLimits(1, Duration.ofMinutes(5), 10_000, Duration.ofMinutes(1)),
            clock,
            new SecureRandom());
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 2000; i++) {
      assertThat(seen.add(many.issue("a", "sb", "w", "/f", Direction.DOWNLOAD, null).token()))
          .isTrue();
    }
  }

  @Test
  void aServerWithoutAnHttpListenerRefusesToIssue() {
    TransferGrants unserved =
        new TransferGrants(null, TransferLimits.defaults(), clock, new SecureRandom());
    assertThatThrownBy(() -> unserved.issue("a", "sb", "w", "/f", Direction.UPLOAD, null))
        .hasMessageContaining("served by the HTTP listener only");
    unserved.servedAt(URI.create("http://127.0.0.1:8080"));
    assertThat(
            unserved.url(unserved.issue("a", "sb", "w", "/f", Direction.UPLOAD, null)).toString())
        .startsWith("http://127.0.0.1:8080/files/");
  }

  private static final class MutableClock extends Clock {
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
