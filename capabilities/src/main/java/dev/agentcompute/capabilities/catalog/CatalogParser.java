package dev.agentcompute.capabilities.catalog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads {@code images/catalog.yaml} against its strict schema (version 1). The YAML is read as a
 * tree and checked by hand so every error names the entry and key that is wrong; unknown keys are
 * errors.
 */
final class CatalogParser {
  private static final Set<String> TOP_KEYS = Set.of("schema_version", "images");
  private static final Set<String> ENTRY_KEYS =
      Set.of(
          "name",
          "os",
          "version",
          "kind",
          "kinds",
          "platform",
          "desktop",
          "description",
          "reference",
          "alias",
          "seed",
          "cpus",
          "memory_mb",
          "disk_gb");
  private static final Set<String> KINDS = Set.of("container", "vm");
  private static final Pattern DIGEST_REFERENCE = Pattern.compile("[^@\\s]+@sha256:[0-9a-f]{64}");
  private static final Pattern REMOTE_ALIAS = Pattern.compile("[^/:@\\s]+:[^\\s@]+");
  private static final ObjectMapper YAML = YAMLMapper.builder().build();

  private CatalogParser() {}

  static ImageCatalog load(Path file) {
    try {
      return parse(Files.readString(file));
    } catch (IOException e) {
      throw new CatalogException("read catalog " + file + ": " + e.getMessage(), e);
    }
  }

  static ImageCatalog parse(String yaml) {
    JsonNode root;
    try {
      root = YAML.readTree(yaml);
    } catch (JacksonException e) {
      throw new CatalogException("catalog is not valid YAML: " + e.getOriginalMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new CatalogException("catalog must be a mapping with schema_version and images");
    }
    rejectUnknown(root, TOP_KEYS, "catalog");
    JsonNode version = root.get("schema_version");
    if (version == null || !version.isIntegralNumber() || version.asInt() != 1) {
      throw new CatalogException("catalog schema_version must be 1");
    }
    JsonNode images = root.get("images");
    if (images == null || !images.isArray()) {
      throw new CatalogException("catalog images must be a list");
    }
    List<CatalogImage> entries = new ArrayList<>();
    Set<String> names = new HashSet<>();
    int index = 0;
    for (JsonNode entry : images) {
      CatalogImage image = entry(entry, index++);
      if (!names.add(image.name())) {
        throw new CatalogException("catalog image \"" + image.name() + "\" is defined twice");
      }
      entries.add(image);
    }
    return new ImageCatalog(entries);
  }

  private static CatalogImage entry(JsonNode node, int index) {
    String where = "catalog images[" + index + "]";
    if (!node.isObject()) {
      throw new CatalogException(where + " must be a mapping");
    }
    String name = requiredString(node, "name", where);
    where = "catalog image \"" + name + "\"";
    rejectUnknown(node, ENTRY_KEYS, where);
    String os = requiredString(node, "os", where);
    String version = requiredString(node, "version", where);
    String kind = requiredString(node, "kind", where);
    List<String> kinds = stringList(node, "kinds", where);
    for (String k : kinds) {
      if (!KINDS.contains(k)) {
        throw new CatalogException(where + ": kinds entry \"" + k + "\" must be container or vm");
      }
    }
    if (!kinds.contains(kind)) {
      throw new CatalogException(where + ": kind \"" + kind + "\" must be one of kinds " + kinds);
    }
    String description = optionalString(node, "description", where, "");
    boolean desktop = optionalBoolean(node, "desktop", where);
    ImageSource source = source(node, where);
    String platform =
        optionalString(
            node, "platform", where, source instanceof ImageSource.Seed ? "mac" : "incus");
    if (!platform.equals("incus") && !platform.equals("mac")) {
      throw new CatalogException(where + ": platform \"" + platform + "\" must be incus or mac");
    }
    if (platform.equals("mac") != source instanceof ImageSource.Seed) {
      throw new CatalogException(where + ": mac images must use seed, and only mac images may");
    }
    if (os.equals("macos") && !platform.equals("mac")) {
      throw new CatalogException(where + ": os macos requires platform mac");
    }
    if (os.toLowerCase().startsWith("windows") && !(source instanceof ImageSource.Alias)) {
      throw new CatalogException(where + ": Windows images must use alias");
    }
    return new CatalogImage(
        name,
        os,
        version,
        kind,
        kinds,
        platform,
        desktop,
        description,
        source,
        positiveInt(node, "cpus", where),
        positiveInt(node, "memory_mb", where),
        positiveInt(node, "disk_gb", where));
  }

  private static ImageSource source(JsonNode node, String where) {
    List<ImageSource> sources = new ArrayList<>();
    if (node.has("reference")) {
      String reference = requiredString(node, "reference", where);
      if (!DIGEST_REFERENCE.matcher(reference).matches()
          && !REMOTE_ALIAS.matcher(reference).matches()) {
        throw new CatalogException(
            where
                + ": reference \""
                + reference
                + "\" must be <repo>@sha256:<64 hex> or remote:alias");
      }
      sources.add(new ImageSource.Reference(reference));
    }
    if (node.has("alias")) {
      sources.add(new ImageSource.Alias(requiredString(node, "alias", where)));
    }
    if (node.has("seed")) {
      sources.add(new ImageSource.Seed(requiredString(node, "seed", where)));
    }
    if (sources.size() != 1) {
      throw new CatalogException(where + ": set exactly one of reference, alias and seed");
    }
    return sources.getFirst();
  }

  private static void rejectUnknown(JsonNode node, Set<String> allowed, String where) {
    Iterator<Map.Entry<String, JsonNode>> fields = node.properties().iterator();
    while (fields.hasNext()) {
      String key = fields.next().getKey();
      if (!allowed.contains(key)) {
        throw new CatalogException(where + ": unknown key \"" + key + "\"");
      }
    }
  }

  private static String requiredString(JsonNode node, String key, String where) {
    JsonNode value = node.get(key);
    if (value == null || value.isNull()) {
      throw new CatalogException(where + ": " + key + " is required");
    }
    if (!value.isString() || value.asString().isBlank()) {
      throw new CatalogException(where + ": " + key + " must be a non-empty string");
    }
    return value.asString();
  }

  private static String optionalString(JsonNode node, String key, String where, String fallback) {
    return node.has(key) ? requiredString(node, key, where) : fallback;
  }

  private static boolean optionalBoolean(JsonNode node, String key, String where) {
    JsonNode value = node.get(key);
    if (value == null) {
      return false;
    }
    if (!value.isBoolean()) {
      throw new CatalogException(where + ": " + key + " must be true or false");
    }
    return value.asBoolean();
  }

  private static List<String> stringList(JsonNode node, String key, String where) {
    JsonNode value = node.get(key);
    if (value == null || !value.isArray() || value.isEmpty()) {
      throw new CatalogException(where + ": " + key + " must be a non-empty list");
    }
    List<String> result = new ArrayList<>();
    for (JsonNode item : value) {
      if (!item.isString()) {
        throw new CatalogException(where + ": " + key + " entries must be strings");
      }
      result.add(item.asString());
    }
    return result;
  }

  private static int positiveInt(JsonNode node, String key, String where) {
    JsonNode value = node.get(key);
    if (value == null) {
      throw new CatalogException(where + ": " + key + " is required");
    }
    if (!value.isIntegralNumber() || !value.canConvertToInt() || value.asInt() <= 0) {
      throw new CatalogException(where + ": " + key + " must be a positive integer");
    }
    return value.asInt();
  }
}
