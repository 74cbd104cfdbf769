package dev.agentcompute.codemode.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Worker caches are code every worker loads, so only a directory and files of this process's user
 * that nobody else may write are used (docs/security.md); anything else is refused and rebuilt.
 */
class WorkerCacheOwnershipTest {
  @TempDir Path dir;

  @Test
  void aMissingCacheDirectoryIsCreatedOwnerOnly() throws IOException {
    Path wanted = dir.resolve("cache");

    Path used = WorkerCommand.privateDirectory(wanted);

    assertThat(used).isEqualTo(wanted);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(used)))
        .isEqualTo("rwx------");
  }

  @Test
  void aCacheDirectoryOthersMayUseIsRefusedForAFreshPrivateOne() throws IOException {
    Path open =
        Files.createDirectory(
            dir.resolve("open"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));

    Path used = WorkerCommand.privateDirectory(open);

    assertThat(used).isNotEqualTo(open);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(used)))
        .isEqualTo("rwx------");
  }

  @Test
  void aCacheDirectoryOfAnotherUserIsRefused() throws IOException {
    assumeTrue(WorkerCommand.myUid() == 0, "only root can give a directory to another user");
    Path theirs = Files.createDirectory(dir.resolve("theirs"));
    Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rwx------"));
    Files.setAttribute(theirs, "unix:uid", 65534);

    assertThat(WorkerCommand.privateDirectory(theirs)).isNotEqualTo(theirs);
  }

  @Test
  void aCacheFileOthersMayWriteIsDeletedAndNotUsed() throws IOException {
    Path aot = Files.writeString(dir.resolve("worker-x.aot"), "planted");
    Files.setPosixFilePermissions(aot, PosixFilePermissions.fromString("rw-rw-rw-"));

    assertThat(WorkerCommand.usable(aot)).isFalse();
    assertThat(aot).doesNotExist();
  }

  @Test
  void aCacheFileOfThisUserIsUsed() throws IOException {
    Path aot = Files.writeString(dir.resolve("worker-y.aot"), "trained");
    Files.setPosixFilePermissions(aot, PosixFilePermissions.fromString("rw-r--r--"));

    assertThat(WorkerCommand.usable(aot)).isTrue();
  }
}
