package dev.agentcompute.server.config;

import dev.agentcompute.server.errors.ConfigException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;
import tools.jackson.dataformat.toml.TomlMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Decodes the configuration file strictly: unknown keys, duplicate keys, wrong types and (for YAML)
 * any document count other than one are errors naming the offending key.
 */
final class ConfigDecoder {
  private static final ObjectMapper YAML =
      YAMLMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .build();
  private static final ObjectMapper TOML =
      TomlMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .build();

  enum Format {
    YAML,
    TOML
  }

  private ConfigDecoder() {}

  /** The format implied by the file name, or a ConfigException naming the accepted extensions. */
  static Format formatOf(String fileName) {
    String lower = fileName.toLowerCase(java.util.Locale.ROOT);
    if (lower.endsWith(".toml")) {
      return Format.TOML;
    }
    if (lower.endsWith(".yaml") || lower.endsWith(".yml")) {
      return Format.YAML;
    }
    throw new ConfigException("configuration must be a .yaml, .yml, or .toml file");
  }

  /** {@code file} names the source in syntax errors ({@code FILE:LINE:COLUMN}, as editors jump). */
  static RuntimeConfig decode(byte[] content, Format format, Path file) {
    try {
      return format == Format.TOML ? decodeToml(content) : decodeYaml(content, file);
    } catch (UnrecognizedPropertyException e) {
      // No line number: Jackson's location for these points past the value in block YAML.
      throw new ConfigException("decode configuration: unknown key " + quote(keyPath(e.getPath())));
    } catch (MismatchedInputException e) {
      throw new ConfigException(
          "decode configuration: key "
              + quote(keyPath(e.getPath()))
              + " has the wrong type: "
              + expected(e));
    } catch (JacksonException e) {
      throw new ConfigException(
          "decode configuration: "
              + location(file, e.getLocation())
              + e.getOriginalMessage().lines().findFirst().orElse("invalid syntax"));
    }
  }

  private static RuntimeConfig decodeToml(byte[] content) {
    RuntimeConfig config = TOML.readValue(content, RuntimeConfig.class);
    return config == null ? empty() : config;
  }

  private static RuntimeConfig decodeYaml(byte[] content, Path file) {
    if (yamlDocuments(content, file) != 1) {
      throw new ConfigException("configuration must contain exactly one YAML document");
    }
    RuntimeConfig config = YAML.readValue(content, RuntimeConfig.class);
    return config == null ? empty() : config;
  }

  /** Counts documents with the YAML event parser (Jackson silently reads only the first). */
  private static int yamlDocuments(byte[] content, Path file) {
    Parse parse = new Parse(LoadSettings.builder().build());
    int documents = 0;
    try {
      for (Event event : parse.parseString(new String(content, StandardCharsets.UTF_8))) {
        if (event.getEventId() == Event.ID.DocumentStart) {
          documents++;
        }
      }
    } catch (MarkedYamlEngineException e) {
      // The parser's marks count from 0; editors and compilers count from 1.
      String where =
          e.getProblemMark()
              .map(m -> file + ":" + (m.getLine() + 1) + ":" + (m.getColumn() + 1) + ": ")
              .orElse(file + ": ");
      String context = e.getContext() == null ? "" : e.getContext() + ": ";
      throw new ConfigException(
          "decode configuration: " + where + context + firstLine(e.getProblem(), "invalid YAML"));
    } catch (YamlEngineException e) {
      throw new ConfigException(
          "decode configuration: " + file + ": " + firstLine(e.getMessage(), "invalid YAML"));
    }
    return documents;
  }

  private static RuntimeConfig empty() {
    return new RuntimeConfig(
        null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
  }

  private static String keyPath(List<JacksonException.Reference> path) {
    return path.stream()
        .map(r -> r.getPropertyName() != null ? r.getPropertyName() : "[" + r.getIndex() + "]")
        .collect(Collectors.joining("."))
        .replace(".[", "[");
  }

  private static String expected(MismatchedInputException e) {
    Class<?> target = e.getTargetType();
    if (target == null) {
      return "unexpected value";
    }
    if (target == Long.class || target == long.class) {
      return "expected an integer";
    }
    if (target == String.class) {
      return "expected a string";
    }
    if (List.class.isAssignableFrom(target)) {
      return "expected a list";
    }
    if (java.util.Map.class.isAssignableFrom(target) || target.isRecord()) {
      return "expected a table of keys";
    }
    return "expected " + target.getSimpleName();
  }

  private static String location(Path file, TokenStreamLocation location) {
    if (location == null || location.getLineNr() <= 0) {
      return file + ": ";
    }
    return file + ":" + location.getLineNr() + ":" + Math.max(location.getColumnNr(), 1) + ": ";
  }

  private static String firstLine(String text, String otherwise) {
    return text == null ? otherwise : text.lines().findFirst().orElse(otherwise);
  }

  private static String quote(String key) {
    return "\"" + key + "\"";
  }
}
