package dev.agentcompute.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same daemon over HTTPS with a generated client certificate. Setup enables {@code
 * core.https_address} on a free loopback port (unless one is already configured) and trusts the
 * certificate; teardown undoes both.
 */
class HttpsIT {

  private static IncusClient unix;
  private static String address;
  private static boolean addressIsOurs;
  private static IncusIdentity identity;
  private static String trustedFingerprint;
  private static String serverCertificate;
  private static IncusClient https;
  private static String project;

  @BeforeAll
  static void enableHttps() throws IOException {
    unix = IncusTestDaemon.client();
    String existing = unix.info().config().getOrDefault("core.https_address", "");
    if (existing.isEmpty()) {
      try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
        address = "127.0.0.1:" + probe.getLocalPort();
      }
      unix.server().updateConfig(Map.of("core.https_address", address));
      addressIsOurs = true;
    } else {
      address =
          existing.startsWith(":") || existing.startsWith("[::]") || existing.startsWith("0.0.0.0")
              ? "127.0.0.1:" + existing.substring(existing.lastIndexOf(':') + 1)
              : existing;
    }
    identity = IncusIdentity.generate(IncusTestDaemon.name("it") + "@agentcompute-test");
    trustedFingerprint =
        unix.server().trust(IncusTestDaemon.name("it-client"), identity.certificate());
    serverCertificate = unix.info().environment().certificate();
    https =
        IncusClient.https(URI.create("https://" + address), identity)
            .pinnedServerCertificate(serverCertificate)
            .build();
    project = IncusTestDaemon.createSharingProject(unix);
  }

  @AfterAll
  static void disableHttps() {
    try {
      if (https != null) {
        https.close();
      }
      if (project != null) {
        IncusTestDaemon.deleteProject(unix, project);
      }
    } finally {
      try {
        if (trustedFingerprint != null) {
          unix.server().untrust(trustedFingerprint);
        }
      } finally {
        if (addressIsOurs) {
          unix.server().updateConfig(Map.of("core.https_address", ""));
        }
        unix.close();
      }
    }
  }

  @Test
  void pinnedClientIsTrusted() {
    ServerInfo info = https.info();
    assertThat(info.trusted()).isTrue();
    assertThat(info.authUserMethod()).isEqualTo("tls");
    assertThat(info.authUserName()).isEqualTo(identity.fingerprint());
    assertThat(https.endpoint()).isEqualTo("https://" + address);
    assertThat(https.projects().list()).extracting(Project::name).contains(project);
  }

  @Test
  void caVerificationAcceptsTheServerCertificateAsAuthority() {
    try (IncusClient ca =
        IncusClient.https(URI.create("https://" + address), identity)
            .trustedAuthorities(serverCertificate)
            .build()) {
      assertThat(ca.info().trusted()).isTrue();
    }
  }

  @Test
  void aWrongPinIsRefused() {
    String other = IncusIdentity.generate("someone@else").certificatePem();
    try (IncusClient wrong =
        IncusClient.https(URI.create("https://" + address), identity)
            .pinnedServerCertificate(other)
            .build()) {
      assertThatThrownBy(wrong::info)
          .isInstanceOf(IncusException.Unavailable.class)
          .hasMessageContaining("GET /1.0");
    }
  }

  @Test
  void anUntrustedIdentityIsForbidden() {
    try (IncusClient stranger =
        IncusClient.https(URI.create("https://" + address), IncusIdentity.generate("stranger@x"))
            .pinnedServerCertificate(serverCertificate)
            .build()) {
      assertThat(stranger.info().trusted()).isFalse();
      assertThatThrownBy(() -> stranger.instances().list())
          .isInstanceOf(IncusException.Forbidden.class);
    }
  }

  @Test
  void instanceExecAndFilesOverHttps() {
    IncusClient scoped = https.inProject(project);
    scoped
        .instances()
        .create(
            InstanceSpec.container("tls", InstanceSpec.Source.imageAlias("busybox"))
                .startingImmediately());
    try {
      ExecResult hello =
          scoped
              .instances()
              .exec(
                  "tls",
                  ExecRequest.of(Duration.ofSeconds(20), "sh", "-c", "cat; echo err >&2; exit 3")
                      .withStdin("over tls\n".getBytes(StandardCharsets.UTF_8)));
      assertThat(hello.exitCode()).isEqualTo(3);
      assertThat(hello.stdoutText()).isEqualTo("over tls\n");
      assertThat(hello.stderrText()).isEqualTo("err\n");

      ExecResult big =
          scoped
              .instances()
              .exec(
                  "tls",
                  ExecRequest.of(
                      Duration.ofSeconds(60), "dd", "if=/dev/zero", "bs=1048576", "count=10"));
      assertThat(big.stdout())
          .hasSize(
              ExecResult.MAX_CAPTURE
                  + BoundedCapture.marker(10L * 1024 * 1024 - ExecResult.MAX_CAPTURE).length);
      assertThat(big.stdoutTruncated()).isTrue();

      ExecResult slow =
          scoped.instances().exec("tls", ExecRequest.of(Duration.ofSeconds(1), "sleep", "6543"));
      assertThat(slow.timedOut()).isTrue();
      ExecResult ps =
          scoped
              .instances()
              .exec("tls", ExecRequest.of(Duration.ofSeconds(20), "ps", "-o", "args"));
      assertThat(ps.stdoutText()).doesNotContain("sleep 6543");

      scoped.files().write("tls", "/root/note", "pinned".getBytes(StandardCharsets.UTF_8), 0600);
      assertThat(
              new String(
                  scoped.files().read("tls", "/root/note").content(), StandardCharsets.UTF_8))
          .isEqualTo("pinned");
      ExecIT.waitUntil(() -> ExecIT.webSocketThreads() == 0, Duration.ofSeconds(5));
      assertThat(ExecIT.webSocketThreads()).isZero();
    } finally {
      scoped.instances().forceDelete("tls");
    }
  }

  @Test
  void imagePulledFromAnotherProjectWithASecret() {
    String images = IncusTestDaemon.name("it");
    unix.projects()
        .create(images, "pull IT", Map.of("features.images", "true", "features.profiles", "false"));
    IncusClient target = unix.inProject(images);
    try {
      String fingerprint = unix.images().alias("busybox", null).target();
      String secret = unix.images().secret(fingerprint);
      String pulled =
          target
              .images()
              .pull(
                  new ImagePull(
                      "https://" + address,
                      serverCertificate,
                      fingerprint,
                      secret,
                      "default",
                      List.of("pulled-busybox")));
      assertThat(pulled).isEqualTo(fingerprint);
      assertThat(target.images().alias("pulled-busybox", null).target()).isEqualTo(fingerprint);
      assertThat(target.images().get(fingerprint).project()).isEqualTo(images);
    } finally {
      for (Image image : target.images().list()) {
        target.images().delete(image.fingerprint());
      }
      unix.projects().delete(images);
    }
  }

  @Test
  void identityRoundTripsThroughPemFiles(@TempDir Path dir) throws IOException {
    identity.write(dir.resolve("client.crt"), dir.resolve("client.key"));
    IncusIdentity loaded =
        IncusIdentity.fromPem(
            dir.resolve("client.crt").toString(), dir.resolve("client.key").toString());
    try (IncusClient fromFiles =
        IncusClient.https(URI.create("https://" + address), loaded)
            .pinnedServerCertificate(serverCertificate)
            .build()) {
      assertThat(fromFiles.info().authUserName()).isEqualTo(identity.fingerprint());
    }
  }
}
