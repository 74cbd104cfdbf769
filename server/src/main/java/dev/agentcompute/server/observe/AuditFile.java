package dev.agentcompute.server.observe;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * The audit trail as a JSON-lines file ({@code audit.file}), one record a line in the same shape as
 * {@code --log-format json} lines of the audit logger. When the next line would take the file past
 * {@code maxBytes} it is rotated: {@code audit.jsonl} becomes {@code audit.jsonl.1}, {@code .1}
 * becomes {@code .2} and so on, and the oldest beyond {@code maxFiles} files in all is deleted.
 * Each line is written and flushed whole, so a reader never sees half a record.
 */
public final class AuditFile implements AutoCloseable {
  private static final Log LOG = Log.of(AuditFile.class);
  private static final Formatter JSON = LogFormats.json();

  private final Path path;
  private final long maxBytes;
  private final int maxFiles;
  private OutputStream out;
  private long size;
  private boolean failing;

  private AuditFile(Path path, long maxBytes, int maxFiles) {
    this.path = path;
    this.maxBytes = maxBytes;
    this.maxFiles = maxFiles;
  }

  /** Opens (appending to) {@code path}; its directory must exist and be writable. */
  public static AuditFile open(Path path, long maxBytes, int maxFiles) throws IOException {
    AuditFile file = new AuditFile(path, maxBytes, maxFiles);
    file.reopen();
    return file;
  }

  public Path path() {
    return path;
  }

  synchronized void append(AuditLog.Record record) {
    byte[] line = line(record).getBytes(StandardCharsets.UTF_8);
    try {
      if (size > 0 && size + line.length > maxBytes) {
        rotate();
      }
      out.write(line);
      out.flush();
      size += line.length;
      failing = false;
    } catch (IOException e) {
      if (!failing) {
        // Once per failing spell: the records still reach the audit logger.
        LOG.error("cannot write the audit file", "file", path, "error", e.getMessage());
        failing = true;
      }
    }
  }

  static String line(AuditLog.Record record) {
    LogRecord r = new LogRecord(Level.INFO, record.event());
    r.setLoggerName(AuditLog.LOGGER);
    r.setInstant(record.time());
    r.setParameters(
        new Object[] {new Log.Attributes(record.pairs().toArray(), null, record.time())});
    return JSON.format(r);
  }

  private void rotate() throws IOException {
    out.close();
    Files.deleteIfExists(numbered(maxFiles - 1));
    for (int i = maxFiles - 2; i >= 1; i--) {
      if (Files.exists(numbered(i))) {
        Files.move(numbered(i), numbered(i + 1), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    if (maxFiles > 1) {
      Files.move(path, numbered(1), StandardCopyOption.REPLACE_EXISTING);
    } else {
      Files.delete(path);
    }
    reopen();
  }

  private Path numbered(int n) {
    return path.resolveSibling(path.getFileName() + "." + n);
  }

  private void reopen() throws IOException {
    out =
        Files.newOutputStream(
            path, StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    size = Files.size(path);
  }

  @Override
  public synchronized void close() throws IOException {
    out.close();
  }
}
