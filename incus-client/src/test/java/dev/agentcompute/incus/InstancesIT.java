package dev.agentcompute.incus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Instance lifecycle, snapshots, copies and files, over the Unix socket in a throwaway project. */
class InstancesIT {

  private IncusClient client;
  private String project;
  private IncusClient scoped;

  @BeforeEach
  void createProject() {
    client = IncusTestDaemon.client();
    project = IncusTestDaemon.createSharingProject(client);
    scoped = client.inProject(project);
  }

  @AfterEach
  void deleteProject() {
    try {
      IncusTestDaemon.deleteProject(client, project);
    } finally {
      client.close();
    }
  }

  @Test
  void createGetListUpdateStartStopRenameDelete() {
    Instances instances = scoped.instances();
    Operation created =
        instances.create(
            InstanceSpec.container("c1", InstanceSpec.Source.imageAlias("busybox"))
                .withConfig(Map.of("user.test.marker", "one")));
    assertThat(created.succeeded()).isTrue();

    Instance c1 = instances.get("c1");
    assertThat(c1.status()).isEqualTo("Stopped");
    assertThat(c1.type()).isEqualTo("container");
    assertThat(c1.project()).isEqualTo(project);
    assertThat(c1.config()).containsEntry("user.test.marker", "one");
    assertThat(c1.expandedDevices()).containsKey("root");
    assertThat(instances.list()).extracting(Instance::name).containsExactly("c1");

    Tagged<Instance> tagged = instances.getTagged("c1");
    Map<String, String> config = new HashMap<>(tagged.value().config());
    config.put("user.test.marker", "two");
    instances.update("c1", tagged.value().toPut().withConfig(config), tagged.etag());
    assertThat(instances.get("c1").config()).containsEntry("user.test.marker", "two");
    assertThatThrownBy(() -> instances.update("c1", tagged.value().toPut(), tagged.etag()))
        .isInstanceOf(IncusException.PreconditionFailed.class);

    instances.start("c1");
    Instance running = instances.get("c1");
    assertThat(running.status()).isEqualTo("Running");
    assertThat(running.state().pid()).isPositive();
    Instance brief = instances.getBrief("c1");
    assertThat(brief.status()).isEqualTo("Running");
    assertThat(brief.state()).isNull();
    assertThat(brief.expandedDevices()).isEqualTo(running.expandedDevices());
    assertThat(brief.config()).isEqualTo(running.config());
    assertThat(instances.listWithState())
        .singleElement()
        .satisfies(i -> assertThat(i.state().status()).isEqualTo("Running"));
    assertThatThrownBy(() -> instances.delete("c1"))
        .isInstanceOf(IncusException.class)
        .hasMessageContaining("running");

    instances.stop("c1", true);
    assertThat(instances.state("c1").status()).isEqualTo("Stopped");
    instances.rename("c1", "c2");
    assertThatThrownBy(() -> instances.get("c1")).isInstanceOf(IncusException.NotFound.class);
    instances.delete("c2");
    assertThat(instances.list()).isEmpty();
  }

  @Test
  void duplicateNamesConflict() {
    scoped
        .instances()
        .create(InstanceSpec.container("dup", InstanceSpec.Source.imageAlias("busybox")));
    assertThatThrownBy(
            () ->
                scoped
                    .instances()
                    .create(
                        InstanceSpec.container("dup", InstanceSpec.Source.imageAlias("busybox"))))
        .isInstanceOf(IncusException.Conflict.class);
  }

  @Test
  void snapshotsAndCopies() {
    Instances instances = scoped.instances();
    Snapshots snapshots = scoped.snapshots();
    instances.create(
        InstanceSpec.container("orig", InstanceSpec.Source.imageAlias("busybox"))
            .startingImmediately());
    scoped
        .files()
        .write("orig", "/root/state.txt", "before".getBytes(StandardCharsets.UTF_8), 0600);
    snapshots.create("orig", "snap0");
    scoped.files().write("orig", "/root/state.txt", "after".getBytes(StandardCharsets.UTF_8), 0600);

    assertThat(snapshots.list("orig")).extracting(Snapshot::name).containsExactly("snap0");
    assertThat(snapshots.get("orig", "snap0").createdAt()).isNotNull();
    assertThat(instances.get("orig").snapshots()).hasSize(1);
    assertThatThrownBy(() -> snapshots.create("orig", "snap0"))
        .isInstanceOf(IncusException.Conflict.class);

    instances.create(
        InstanceSpec.container("restored", InstanceSpec.Source.copy("orig/snap0"))
            .startingImmediately());
    assertThat(
            new String(
                scoped.files().read("restored", "/root/state.txt").content(),
                StandardCharsets.UTF_8))
        .isEqualTo("before");
    instances.create(InstanceSpec.container("clone", InstanceSpec.Source.copy("orig")));
    assertThat(instances.get("clone").status()).isEqualTo("Stopped");

    snapshots.delete("orig", "snap0");
    assertThat(snapshots.list("orig")).isEmpty();
    instances.forceDelete("restored");
    instances.forceDelete("clone");
    instances.forceDelete("orig");
    assertThat(instances.list()).isEmpty();
  }

  @Test
  void filesAreWrittenReadAndDeleted() {
    scoped
        .instances()
        .create(
            InstanceSpec.container("files", InstanceSpec.Source.imageAlias("busybox"))
                .startingImmediately());
    Files files = scoped.files();
    byte[] content = new byte[100_000];
    for (int i = 0; i < content.length; i++) {
      content[i] = (byte) (i * 31);
    }
    files.write("files", "/tmp/blob.bin", content, 0640);
    FileContent read = files.read("files", "/tmp/blob.bin");
    assertThat(read.content()).isEqualTo(content);
    assertThat(read.mode()).isEqualTo(0640);
    assertThat(read.uid()).isZero();
    assertThat(read.type()).isEqualTo("file");

    files.write("files", "/tmp/blob.bin", "short".getBytes(StandardCharsets.UTF_8), null);
    assertThat(new String(files.read("files", "/tmp/blob.bin").content(), StandardCharsets.UTF_8))
        .isEqualTo("short");
    ExecResult ls =
        scoped
            .instances()
            .exec("files", ExecRequest.of(Duration.ofSeconds(20), "cat", "/tmp/blob.bin"));
    assertThat(ls.stdoutText()).isEqualTo("short");

    assertThatThrownBy(() -> files.read("files", "/tmp"))
        .isInstanceOf(IncusException.Failed.class)
        .hasMessageContaining("not a regular file");
    files.delete("files", "/tmp/blob.bin");
    assertThatThrownBy(() -> files.read("files", "/tmp/blob.bin"))
        .isInstanceOf(IncusException.NotFound.class);
  }

  @Test
  void asyncOperationsCanBeAwaitedWithATimeout() {
    PendingOperation pending =
        scoped
            .instances()
            .createAsync(
                InstanceSpec.container("async", InstanceSpec.Source.imageAlias("busybox")));
    assertThat(pending.id()).isNotBlank();
    assertThat(pending.started().operationClass()).isEqualTo("task");
    Operation done = pending.await(Duration.ofSeconds(60));
    assertThat(done.done()).isTrue();
    assertThat(done.resources()).containsKey("instances");
    assertThat(scoped.operations().get(pending.id()).succeeded()).isTrue();
  }
}
