package dev.agentcompute.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Image copies between projects, bounded file reads, the call observer, storage pools. */
class TransfersIT {

  private record Call(String method, String path, int status) {}

  @Test
  void anImageIsCopiedBetweenProjectsUnchanged(@TempDir Path dir) throws Exception {
    try (IncusClient client = IncusTestDaemon.client()) {
      String from = IncusTestDaemon.name("it");
      String to = IncusTestDaemon.name("it");
      client
          .projects()
          .create(
              from, "copy source", Map.of("features.images", "true", "features.profiles", "false"));
      client
          .projects()
          .create(
              to, "copy target", Map.of("features.images", "true", "features.profiles", "false"));
      try {
        Path tarball = ImagesIT.unifiedTarball(dir);
        String fingerprint =
            client
                .inProject(from)
                .images()
                .importTarball(tarball, Map.of("os", "none"), List.of("tiny"));

        assertThat(client.inProject(from).images().copyToProject(fingerprint, to))
            .isEqualTo(fingerprint);

        Image copied = client.inProject(to).images().get(fingerprint);
        assertThat(copied.fingerprint()).isEqualTo(ImagesIT.sha256(tarball));
        assertThat(copied.aliases()).isEmpty();
        assertThat(client.inProject(from).images().get(fingerprint).fingerprint())
            .isEqualTo(fingerprint);
        assertThatThrownBy(() -> client.inProject(from).images().copyToProject("0".repeat(64), to))
            .isInstanceOf(IncusException.NotFound.class)
            .hasMessageContaining("/export");
      } finally {
        for (String project : List.of(from, to)) {
          for (Image image : client.inProject(project).images().list()) {
            client.inProject(project).images().delete(image.fingerprint());
          }
          client.projects().delete(project);
        }
      }
    }
  }

  @Test
  void storagePoolsAreReadable() {
    try (IncusClient client = IncusTestDaemon.client()) {
      assertThat(client.storagePools().list()).extracting(StoragePool::name).contains("default");
      StoragePool pool = client.storagePools().get("default");
      assertThat(pool.driver()).isNotBlank();
      assertThat(pool.status()).isEqualTo("Created");
      assertThatThrownBy(() -> client.storagePools().get(IncusTestDaemon.name("no-pool")))
          .isInstanceOf(IncusException.NotFound.class);
    }
  }

  @Test
  void aBoundedReadKeepsTheLimitAndSaysWhetherMoreWasThere() {
    List<Call> calls = new CopyOnWriteArrayList<>();
    try (IncusClient client =
        IncusClient.unixSocket(IncusTestDaemon.socket())
            .onCall(
                (method, path, status, nanos) -> {
                  assertThat(nanos).isPositive();
                  calls.add(new Call(method, path, status));
                })
            .build()) {
      String project = IncusTestDaemon.createSharingProject(client);
      IncusClient scoped = client.inProject(project);
      try {
        scoped
            .instances()
            .create(
                InstanceSpec.container("c", InstanceSpec.Source.imageAlias("busybox"))
                    .withProfiles(List.of("default"))
                    .startingImmediately());
        byte[] big = new byte[4 * 1024 * 1024];
        for (int i = 0; i < big.length; i++) {
          big[i] = (byte) ('a' + i % 26);
        }
        scoped.files().write("c", "/root/big", big, 0644);
        scoped.files().write("c", "/root/small", "hello".getBytes(StandardCharsets.UTF_8), 0600);

        BoundedFileContent head = scoped.files().read("c", "/root/big", 100);
        assertThat(head.content()).isEqualTo(Arrays.copyOf(big, 100));
        assertThat(head.truncated()).isTrue();
        assertThat(head.isRegularFile()).isTrue();

        BoundedFileContent exact = scoped.files().read("c", "/root/small", 5);
        assertThat(new String(exact.content(), StandardCharsets.UTF_8)).isEqualTo("hello");
        assertThat(exact.truncated()).isFalse();
        assertThat(exact.mode()).isEqualTo(0600);

        BoundedFileContent empty = scoped.files().read("c", "/root/small", 0);
        assertThat(empty.content()).isEmpty();
        assertThat(empty.truncated()).isTrue();

        assertThat(scoped.files().read("c", "/root", 10).isRegularFile()).isFalse();
        assertThatThrownBy(() -> scoped.files().read("c", "/root/missing", 10))
            .isInstanceOf(IncusException.NotFound.class);
        // The aborted connections did not poison the pool.
        assertThat(scoped.files().read("c", "/root/big", 1L << 30).content()).isEqualTo(big);
        assertThat(scoped.instances().state("c").status()).isEqualTo("Running");

        assertThat(calls)
            .contains(
                new Call("GET", "/1.0/instances/c/files", 404),
                new Call("GET", "/1.0/instances/c/state", 200),
                new Call("POST", "/1.0/instances", 202));
        assertThat(calls).allSatisfy(call -> assertThat(call.path()).doesNotContain("?"));
      } finally {
        IncusTestDaemon.deleteProject(client, project);
      }
    }
  }
}
