package dev.agentcompute.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Images in a project with its own image store: import, aliases, secrets, publish, delete. */
class ImagesIT {

  private IncusClient client;
  private String project;
  private IncusClient scoped;

  @BeforeEach
  void createProject() {
    client = IncusTestDaemon.client();
    project = IncusTestDaemon.name("it");
    client
        .projects()
        .create(
            project, "images IT", Map.of("features.images", "true", "features.profiles", "false"));
    scoped = client.inProject(project);
  }

  @AfterEach
  void deleteProject() {
    try {
      IncusTestDaemon.deleteProject(client, project);
    } catch (IncusException e) {
      // Images first, then the project again.
      for (Image image : scoped.images().list()) {
        scoped.images().delete(image.fingerprint());
      }
      client.projects().delete(project);
    } finally {
      client.close();
    }
  }

  @Test
  void importAliasPublishAndDelete(@TempDir Path dir) throws Exception {
    Path tarball = unifiedTarball(dir);
    String fingerprint =
        scoped
            .images()
            .importTarball(
                tarball, Map.of("description", "tiny test image", "os", "none"), List.of("tiny"));
    assertThat(fingerprint).isEqualTo(sha256(tarball));
    try {
      Image image = scoped.images().get(fingerprint);
      assertThat(image.properties())
          .containsEntry("os", "none")
          .containsEntry("description", "tiny test image");
      assertThat(image.isPublic()).isFalse();
      assertThat(image.aliases()).extracting(Image.Alias::name).containsExactly("tiny");
      assertThat(scoped.images().alias("tiny", null).target()).isEqualTo(fingerprint);
      assertThat(scoped.images().alias("tiny", "container").target()).isEqualTo(fingerprint);
      assertThat(client.images().list()).extracting(Image::fingerprint).doesNotContain(fingerprint);

      scoped.images().createAlias("tiny2", fingerprint, "second");
      assertThat(scoped.images().alias("tiny2", null).description()).isEqualTo("second");
      assertThatThrownBy(() -> scoped.images().createAlias("tiny2", fingerprint, null))
          .isInstanceOf(IncusException.Conflict.class);
      scoped.images().deleteAlias("tiny2");
      assertThatThrownBy(() -> scoped.images().alias("tiny2", null))
          .isInstanceOf(IncusException.NotFound.class);

      PendingOperation token = scoped.images().secretOperation(fingerprint);
      assertThat(Images.secretOf(token, fingerprint)).hasSize(64);
      assertThat(token.started().mayCancel()).isTrue();
      assertThatThrownBy(() -> token.await(Duration.ofSeconds(1)))
          .isInstanceOf(IncusException.TimedOut.class)
          .hasMessageContaining(token.id());
      // Interrupting a waiting caller cancels the wait (not the operation).
      java.util.concurrent.CompletableFuture<Throwable> waited =
          new java.util.concurrent.CompletableFuture<>();
      Thread waiter =
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      token.await(Duration.ofSeconds(60));
                      waited.complete(null);
                    } catch (Throwable t) {
                      waited.complete(t);
                    }
                  });
      Thread.sleep(300);
      waiter.interrupt();
      assertThat(waited.get(5, java.util.concurrent.TimeUnit.SECONDS))
          .isInstanceOf(IncusException.Cancelled.class);
      assertThat(scoped.operations().get(token.id()).status()).isEqualTo("Running");
      token.cancel();
      assertThatThrownBy(token::await).isInstanceOf(IncusException.Cancelled.class);
      assertThat(scoped.operations().get(token.id()).status()).isEqualTo("Cancelled");

      scoped
          .instances()
          .create(InstanceSpec.container("pub", InstanceSpec.Source.imageFingerprint(fingerprint)));
      String published =
          scoped
              .images()
              .publish(
                  ImagePublish.of("pub")
                      .withProperties(Map.of("user.agentcompute.image", "pub"))
                      .withAliases(List.of("published")));
      assertThat(published).isNotEqualTo(fingerprint).hasSize(64);
      assertThat(scoped.images().get(published).properties())
          .containsEntry("user.agentcompute.image", "pub");
      assertThat(scoped.images().alias("published", null).target()).isEqualTo(published);
      scoped.instances().delete("pub");
      scoped.images().delete(published);
      assertThatThrownBy(() -> scoped.images().get(published))
          .isInstanceOf(IncusException.NotFound.class);
    } finally {
      scoped.images().delete(fingerprint);
    }
    assertThat(scoped.images().list()).isEmpty();
  }

  /** metadata.yaml + rootfs/ in one gzipped tar, the unified image format. */
  static Path unifiedTarball(Path dir) throws IOException, InterruptedException {
    Path tree = dir.resolve("image");
    java.nio.file.Files.createDirectories(tree.resolve("rootfs/etc"));
    java.nio.file.Files.writeString(
        tree.resolve("metadata.yaml"),
        """
                architecture: x86_64
                creation_date: %d
                properties:
                  description: tiny test image
                """
            .formatted(System.currentTimeMillis() / 1000),
        StandardCharsets.UTF_8);
    java.nio.file.Files.writeString(
        tree.resolve("rootfs/etc/hostname"), "tiny\n", StandardCharsets.UTF_8);
    Path tarball = dir.resolve("tiny.tar.gz");
    Process tar =
        new ProcessBuilder(
                "tar", "-C", tree.toString(), "-czf", tarball.toString(), "metadata.yaml", "rootfs")
            .redirectErrorStream(true)
            .start();
    String output = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (tar.waitFor() != 0) {
      throw new IOException("tar failed: " + output);
    }
    return tarball;
  }

  static String sha256(Path file) throws Exception {
    return HexFormat.of()
        .formatHex(
            MessageDigest.getInstance("SHA-256").digest(java.nio.file.Files.readAllBytes(file)));
  }
}
