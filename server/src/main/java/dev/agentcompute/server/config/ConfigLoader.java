package dev.agentcompute.server.config;

import dev.agentcompute.server.errors.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads, decodes and validates one configuration file (docs/configuration.md#configuration-file).
 */
public final class ConfigLoader {
  private ConfigLoader() {}

  public static LoadedConfig load(Path file) {
    Path absolute = file.toAbsolutePath().normalize();
    ConfigDecoder.Format format = ConfigDecoder.formatOf(absolute.getFileName().toString());
    byte[] content;
    try {
      content = Files.readAllBytes(absolute);
    } catch (NoSuchFileException e) {
      throw new ConfigException("open configuration: " + absolute + ": no such file");
    } catch (IOException e) {
      throw new ConfigException("open configuration: " + absolute + ": " + e.getMessage());
    }
    RuntimeConfig raw = ConfigDecoder.decode(content, format, absolute);
    ServerConfig config = ConfigValidator.validate(raw, absolute.getParent());
    return new LoadedConfig(
        config, absolute, Digests.sha256Hex(content), GitCommit.of(absolute.getParent()));
  }
}
