package dev.agentcompute.capabilities.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.capabilities.ComputeRuntime;
import dev.agentcompute.capabilities.adapter.CapabilityDefinition;
import dev.agentcompute.capabilities.adapter.instance.FileCapabilities;
import dev.agentcompute.capabilities.adapter.instance.InstanceCapabilities;
import dev.agentcompute.capabilities.files.TransferGrants;
import dev.agentcompute.capabilities.files.TransferGrants.Direction;
import dev.agentcompute.capabilities.files.TransferGrants.Grant;
import dev.agentcompute.capabilities.files.TransferLimits;
import dev.agentcompute.capabilities.incus.IncusPlatform;
import dev.agentcompute.capabilities.model.AgentFacingException;
import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.capabilities.model.ExecResult;
import dev.agentcompute.capabilities.service.FileService;
import dev.agentcompute.capabilities.service.SandboxAccess;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Files of any size on the real incusd through the capabilities' typed handlers and the file
 * service (docs/reference/capabilities.md#files): listings, metadata, ranged reads, and streamed
 * uploads and downloads with their limit. The HTTP side is {@code FileTransfersIT} in the server.
 */
@Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class FilesIT {
  private static final String ME = "operator";
  private static final long MAX_UPLOAD = 4L << 20;
  @RegisterExtension static final RuntimeFixture IT = RuntimeFixture.perClass();
  private static List<CapabilityDefinition<?, ?>> caps;
  private static FileService files;
  private static String sb;

  @BeforeAll
  static void start() {
    IncusPlatform incus =
        IncusPlatform.overUnixSocket(IncusHarness.socket(), IncusHarness.config());
    ComputeRuntime runtime =
        ComputeRuntime.prepare(
                IncusHarness.config(),
                List.of(incus.platform()),
                incus.reaperLease(),
                Clock.systemUTC(),
                Optional.empty(),
                new TransferGrants(
                    URI.create("http://127.0.0.1:9"),
                    new TransferLimits(MAX_UPLOAD, Duration.ofMinutes(5), 8, Duration.ofMinutes(2)),
                    Clock.systemUTC(),
                    new SecureRandom()),
                incus)
            .startReaper();
    IT.use(runtime);
    caps = IT.capabilities();
    files = runtime.compute().files();
    sb = IT.sandbox("itfiles", OptionalLong.empty());
    call("instance.create", InstanceCapabilities.CreateInput.of(sb, "c1", "busybox"));
    exec(
        "mkdir -p /root/d/sub && seq 1 20000 > /root/d/nums && ln -s /root/d/nums /root/d/link"
            + " && : > /root/d/empty && chmod 0600 /root/d/nums");
  }

  private static <O> O call(String name, Record input) {
    return IncusHarness.call(caps, ME, name, input);
  }

  private static String exec(String command) {
    ExecResult out =
        call(
            "instance.exec",
            new InstanceCapabilities.ExecInput(
                sb,
                "c1",
                command,
                OptionalLong.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty()));
    assertThat(out.exit_code()).as(out.stderr()).isZero();
    return out.stdout();
  }

  private static InstanceCapabilities.ReadOutput read(String path, long offset, long length) {
    return call(
        "instance.file.read",
        new InstanceCapabilities.ReadInput(
            sb,
            "c1",
            path,
            OptionalLong.empty(),
            OptionalLong.of(offset),
            OptionalLong.of(length)));
  }

  @Test
  void listAndStatDescribeEntriesAsIncusGivesThem() {
    FileCapabilities.ListOutput list =
        call("instance.file.list", new FileCapabilities.PathInput(sb, "c1", "/root/d"));
    assertThat(list.items())
        .extracting(FileCapabilities.FileItem::name)
        .containsExactly("empty", "link", "nums", "sub");
    assertThat(list.total()).isEqualTo(4);
    assertThat(list.truncated()).isFalse();
    FileCapabilities.FileItem nums = list.items().get(2);
    long numsSize = Long.parseLong(exec("wc -c < /root/d/nums").strip());
    assertThat(nums.type()).isEqualTo("file");
    assertThat(nums.size()).isEqualTo(numsSize);
    assertThat(nums.mode()).isEqualTo("0600");
    assertThat(nums.uid()).isZero();
    assertThat(nums.modified()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    assertThat(list.items().get(1).type()).isEqualTo("symlink");
    assertThat(list.items().get(3).type()).isEqualTo("directory");

    FileCapabilities.FileItem stat =
        call("instance.file.stat", new FileCapabilities.PathInput(sb, "c1", "/root/d/nums"));
    assertThat(stat).isEqualTo(nums);
    assertThatThrownBy(
            () -> call("instance.file.stat", new FileCapabilities.PathInput(sb, "c1", "/nope")))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage("file not found on instance \"c1\" in sandbox \"" + sb + "\"");
    assertThatThrownBy(
            () ->
                call(
                    "instance.file.list", new FileCapabilities.PathInput(sb, "c1", "/root/d/nums")))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage(
            "path \"/root/d/nums\" is a file, not a directory, on instance \"c1\" in sandbox \""
                + sb
                + "\"");
  }

  @Test
  void readTakesAnyRangeAndSaysWhereToGoOn() {
    // exec keeps the first 16 KiB of a long stream: enough for the head; size and tail apart.
    String head = exec("head -c 100 /root/d/nums");
    long size = Long.parseLong(exec("wc -c < /root/d/nums").strip());
    String last = exec("tail -c 6 /root/d/nums");
    InstanceCapabilities.ReadOutput middle = read("/root/d/nums", 10, 20);
    assertThat(middle.content()).isEqualTo(head.substring(10, 30));
    assertThat(middle.size()).isEqualTo(size);
    assertThat(middle.next_offset()).isEqualTo(30);
    assertThat(middle.truncated()).isTrue();

    InstanceCapabilities.ReadOutput tail = read("/root/d/nums", size - 6, 65536);
    assertThat(tail.content()).isEqualTo(last);
    assertThat(tail.truncated()).isFalse();
    assertThat(tail.next_offset()).isEqualTo(size);

    InstanceCapabilities.ReadOutput atEnd = read("/root/d/nums", size, 10);
    assertThat(atEnd.content()).isEmpty();
    assertThat(atEnd.truncated()).isFalse();
    assertThat(read("/root/d/empty", 0, 10).size()).isZero();
    assertThatThrownBy(() -> read("/root/d/nums", size + 1, 10))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage(
            "offset %d is past the end of \"/root/d/nums\" (%d bytes)".formatted(size + 1, size));
    assertThatThrownBy(() -> read("/root/d/sub", 0, 10))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage("path is not a regular file on instance \"c1\" in sandbox \"" + sb + "\"");
    // The older max_bytes still works from the start.
    InstanceCapabilities.ReadOutput old =
        call(
            "instance.file.read",
            new InstanceCapabilities.ReadInput(sb, "c1", "/root/d/nums", OptionalLong.of(5)));
    assertThat(old.content()).isEqualTo(head.substring(0, 5));
    assertThat(old.next_offset()).isEqualTo(5);
  }

  @Test
  void uploadsAndDownloadsStreamAndTheLimitIsNamed() throws Exception {
    byte[] body = new byte[3 << 20];
    new SplittableRandom(7).nextBytes(body);
    Grant up =
        ScopedValue.where(SandboxAccess.CALLER, ME)
            .call(() -> files.issue(ME, sb, "c1", "/root/blob", Direction.UPLOAD, 0640));
    // Chunked (length unknown) as well as with a length: both stream.
    assertThat(files.upload(up, new ByteArrayInputStream(body), -1)).isEqualTo(body.length);
    FileCapabilities.FileItem stat =
        call("instance.file.stat", new FileCapabilities.PathInput(sb, "c1", "/root/blob"));
    assertThat(stat.size()).isEqualTo(body.length);
    assertThat(stat.mode()).isEqualTo("0640");

    Grant down = files.issue(ME, sb, "c1", "/root/blob", Direction.DOWNLOAD, null);
    ByteArrayOutputStream back = new ByteArrayOutputStream();
    long size =
        files.download(
            down,
            (file, content) -> {
              content.transferTo(back);
              return file.size();
            });
    assertThat(size).isEqualTo(body.length);
    assertThat(back.toByteArray()).isEqualTo(body);

    Grant tooBig = files.issue(ME, sb, "c1", "/root/big", Direction.UPLOAD, null);
    assertThatThrownBy(() -> files.upload(tooBig, InputStream.nullInputStream(), MAX_UPLOAD + 1))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage(
            "upload of %d bytes exceeds files.max_upload_bytes = %d; split the file or ask the"
                    .formatted(MAX_UPLOAD + 1, MAX_UPLOAD)
                + " operator to raise the limit");
    Grant endless = files.issue(ME, sb, "c1", "/root/big", Direction.UPLOAD, null);
    assertThatThrownBy(() -> files.upload(endless, new ByteArrayInputStream(new byte[5 << 20]), -1))
        .isInstanceOf(AgentFacingException.class)
        .hasMessageStartingWith("upload of more than %d bytes exceeds".formatted(MAX_UPLOAD));
    // The partial file is removed.
    assertThat(exec("ls /root")).doesNotContain("big");

    assertThatThrownBy(
            () -> files.issue(ME, sb, "c1", "/root/no/such/file", Direction.UPLOAD, null))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage(
            "parent directory of \"/root/no/such/file\" does not exist on instance \"c1\" in"
                + " sandbox \""
                + sb
                + "\"");
    assertThatThrownBy(() -> files.issue(ME, sb, "c1", "/root/d", Direction.DOWNLOAD, null))
        .isInstanceOf(AgentFacingException.class)
        .hasMessage("path is not a regular file on instance \"c1\" in sandbox \"" + sb + "\"");
  }

  /**
   * A copy-on-write pool (btrfs, zfs) enforces the root disk's size; {@code dir} does not, so there
   * the disk cannot be filled short of the host's and the test is skipped. Filling a 1 GiB root
   * disk, a write through Incus is refused with "disk quota exceeded", and the agent is told which
   * disk, its size, and the fix; the full instance still deletes.
   */
  @Test
  void aWriteToAFullDiskNamesTheDiskAndTheFix() throws Exception {
    String driver;
    try (var client =
        dev.agentcompute.incus.IncusClient.unixSocket(IncusHarness.socket()).build()) {
      driver = client.storagePools().get(IncusHarness.config().storagePool()).driver();
    }
    org.junit.jupiter.api.Assumptions.assumeFalse(
        driver.equals("dir"),
        "the storage pool '"
            + IncusHarness.config().storagePool()
            + "' is dir, which enforces no root disk size: run on a btrfs pool (dev/setup's"
            + " default where the kernel allows it, or -Dagentcompute.it.pool=NAME)");
    call(
        "instance.create",
        new InstanceCapabilities.CreateInput(
            sb,
            "full",
            "busybox",
            Optional.empty(),
            OptionalLong.empty(),
            OptionalLong.empty(),
            OptionalLong.of(1),
            Optional.empty(),
            Optional.empty(),
            Optional.empty()));
    ExecResult fill =
        call(
            "instance.exec",
            new InstanceCapabilities.ExecInput(
                sb,
                "full",
                "dd if=/dev/zero of=/root/fill bs=1M count=1100; : > /root/more; echo $?",
                OptionalLong.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty()));
    assertThat(fill.stderr()).contains("Disk quota exceeded");
    String expected =
        "the root disk of instance \"full\" (1GiB) is full (disk quota exceeded): delete files in"
            + " it, or create the instance again with a larger disk_gb"
            + " (instance.create(..., disk_gb=N))";

    assertThatThrownBy(
            () ->
                call(
                    "instance.file.write",
                    new InstanceCapabilities.WriteInput(
                        sb, "full", "/root/note", "hello", Optional.empty())))
        .isInstanceOfSatisfying(
            BackendException.class,
            e -> assertThat(e.agentText()).as(e.getMessage()).hasValue(expected));
    Grant up =
        ScopedValue.where(SandboxAccess.CALLER, ME)
            .call(() -> files.issue(ME, sb, "full", "/root/blob", Direction.UPLOAD, null));
    assertThatThrownBy(() -> files.upload(up, new ByteArrayInputStream(new byte[1 << 20]), -1))
        .isInstanceOfSatisfying(
            BackendException.class,
            e -> assertThat(e.agentText()).as(e.getMessage()).hasValue(expected));

    call("instance.delete", new InstanceCapabilities.RefInput(sb, "full"));
    InstanceCapabilities.ListOutput left =
        call("instance.list", new InstanceCapabilities.SandboxInput(sb));
    assertThat(left.items()).extracting(i -> i.name()).doesNotContain("full");
  }
}
