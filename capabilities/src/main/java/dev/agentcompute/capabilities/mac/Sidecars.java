package dev.agentcompute.capabilities.mac;

import dev.agentcompute.capabilities.model.BackendException;
import dev.agentcompute.lume.MacHost;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads and writes the sidecars on the Mac host (one JSON line per sandbox, written atomically).
 */
final class Sidecars {
  static final String DIR = ".agentcompute/sandboxes";

  private final MacHost host;
  private final JsonMapper json = JsonMapper.builder().build();

  Sidecars(MacHost host) {
    this.host = host;
  }

  Optional<Sidecar> read(String name) {
    String text = MacFailures.call(() -> host.readHomeJsonFiles(DIR)).get(name);
    if (text == null) {
      return Optional.empty();
    }
    Sidecar record = parse(text);
    if (record == null || record.version() != Sidecar.VERSION) {
      throw new BackendException(
          BackendException.Kind.FAILED,
          "sidecar of sandbox " + name + " is not a version " + Sidecar.VERSION + " record");
    }
    return Optional.of(record);
  }

  /** Every version-1 sidecar; others (newer servers' records) are left out. */
  List<Sidecar> list() {
    Map<String, String> files = MacFailures.call(() -> host.readHomeJsonFiles(DIR));
    List<Sidecar> all = new ArrayList<>();
    for (String text : files.values()) {
      Sidecar record = parse(text);
      if (record != null && record.version() == Sidecar.VERSION) {
        all.add(record);
      }
    }
    return all;
  }

  void write(Sidecar record) {
    String text = json.writeValueAsString(record);
    MacFailures.run(() -> host.writeHomeFile(DIR + "/" + record.name() + ".json", text));
  }

  void delete(String name) {
    MacFailures.run(() -> host.deleteHomeFile(DIR + "/" + name + ".json"));
  }

  private Sidecar parse(String text) {
    try {
      return json.readValue(text, Sidecar.class);
    } catch (RuntimeException e) {
      return null;
    }
  }
}
