package dev.agentcompute.ovn;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OVSDB value encoding of RFC 7047 §5.1, both ways. Java to JSON: String, integral numbers,
 * floating numbers, Boolean, {@link Uuid} ({@code ["uuid",..]}), {@link NamedUuid} ({@code
 * ["named-uuid",..]}), any {@link Collection} ({@code ["set",[..]]}, a one-element set as the bare
 * atom) and {@link Map} ({@code ["map",[[k,v],..]]}). JSON to Java gives the same types, with sets
 * as unmodifiable {@link Set}s and integers as {@link Long}.
 */
final class OvsdbCodec {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private OvsdbCodec() {}

  static JsonNode encode(Object value) {
    return switch (value) {
      case null -> throw new IllegalArgumentException("OVSDB has no null value");
      case Collection<?> set -> encodeSet(set);
      case Map<?, ?> map -> encodeMap(map);
      default -> encodeAtom(value);
    };
  }

  static JsonNode encodeAtom(Object value) {
    return switch (value) {
      case String s -> JSON.stringNode(s);
      case Long l -> JSON.numberNode(l);
      case Integer i -> JSON.numberNode(i.longValue());
      case Short s -> JSON.numberNode(s.longValue());
      case Byte b -> JSON.numberNode(b.longValue());
      case Double d -> finite(d);
      case Float f -> finite(f.doubleValue());
      case Boolean b -> JSON.booleanNode(b);
      case Uuid u -> pair("uuid", u.value());
      case NamedUuid n -> pair("named-uuid", n.name());
      case null -> throw new IllegalArgumentException("OVSDB has no null atom");
      default ->
          throw new IllegalArgumentException(
              "cannot encode " + value.getClass().getName() + " as an OVSDB atom: " + value);
    };
  }

  private static JsonNode finite(double d) {
    if (!Double.isFinite(d)) {
      throw new IllegalArgumentException("OVSDB reals must be finite, got " + d);
    }
    return JSON.numberNode(d);
  }

  private static JsonNode encodeSet(Collection<?> set) {
    if (set.size() == 1) {
      return encodeAtom(set.iterator().next());
    }
    ArrayNode elements = JSON.arrayNode();
    new LinkedHashSet<>(set).forEach(e -> elements.add(encodeAtom(e)));
    return JSON.arrayNode().add("set").add(elements);
  }

  private static JsonNode encodeMap(Map<?, ?> map) {
    ArrayNode pairs = JSON.arrayNode();
    map.forEach((k, v) -> pairs.add(JSON.arrayNode().add(encodeAtom(k)).add(encodeAtom(v))));
    return JSON.arrayNode().add("map").add(pairs);
  }

  private static ArrayNode pair(String tag, String value) {
    return JSON.arrayNode().add(tag).add(value);
  }

  static Object decode(JsonNode json) {
    if (json.isArray()) {
      if (json.size() != 2 || !json.get(0).isString()) {
        throw malformed(json);
      }
      String tag = json.get(0).stringValue();
      JsonNode body = json.get(1);
      return switch (tag) {
        case "uuid" -> new Uuid(text(body, json));
        case "named-uuid" -> new NamedUuid(text(body, json));
        case "set" -> decodeSet(body, json);
        case "map" -> decodeMap(body, json);
        default -> throw malformed(json);
      };
    }
    return decodeAtom(json);
  }

  private static Object decodeAtom(JsonNode json) {
    if (json.isString()) {
      return json.stringValue();
    }
    if (json.isBoolean()) {
      return json.booleanValue();
    }
    if (json.isIntegralNumber()) {
      return json.longValue();
    }
    if (json.isFloatingPointNumber()) {
      return json.doubleValue();
    }
    if (json.isArray()) {
      Object atom = decode(json);
      if (atom instanceof Uuid || atom instanceof NamedUuid) {
        return atom;
      }
    }
    throw malformed(json);
  }

  private static Set<Object> decodeSet(JsonNode body, JsonNode whole) {
    if (!body.isArray()) {
      throw malformed(whole);
    }
    Set<Object> set = new LinkedHashSet<>();
    body.forEach(e -> set.add(decodeAtom(e)));
    return Collections.unmodifiableSet(set);
  }

  private static Map<Object, Object> decodeMap(JsonNode body, JsonNode whole) {
    if (!body.isArray()) {
      throw malformed(whole);
    }
    Map<Object, Object> map = new LinkedHashMap<>();
    for (JsonNode pair : body) {
      if (!pair.isArray() || pair.size() != 2) {
        throw malformed(whole);
      }
      map.put(decodeAtom(pair.get(0)), decodeAtom(pair.get(1)));
    }
    return Collections.unmodifiableMap(map);
  }

  private static String text(JsonNode node, JsonNode whole) {
    if (!node.isString()) {
      throw malformed(whole);
    }
    return node.stringValue();
  }

  private static IllegalArgumentException malformed(JsonNode json) {
    return new IllegalArgumentException("not an OVSDB value: " + json);
  }

  // ---------------------------------------------------------------- rows and operations

  static ObjectNode encodeRow(Map<String, Object> row) {
    ObjectNode json = JSON.objectNode();
    row.forEach((column, value) -> json.set(column, encode(value)));
    return json;
  }

  /** Decodes a {@code <row>} object; {@code uuid}, when given, is added as {@code _uuid}. */
  static Row decodeRow(JsonNode json, Uuid uuid) {
    if (!json.isObject()) {
      throw malformed(json);
    }
    Map<String, Object> columns = new LinkedHashMap<>();
    if (uuid != null) {
      columns.put("_uuid", uuid);
    }
    for (Map.Entry<String, JsonNode> e : json.properties()) {
      columns.put(e.getKey(), decode(e.getValue()));
    }
    return new Row(columns);
  }

  static ObjectNode encode(Operation operation) {
    ObjectNode json = JSON.objectNode();
    switch (operation) {
      case Operation.Insert insert -> {
        json.put("op", "insert").put("table", insert.table()).set("row", encodeRow(insert.row()));
        insert.uuidName().ifPresent(name -> json.put("uuid-name", name));
      }
      case Operation.Select select -> {
        json.put("op", "select")
            .put("table", select.table())
            .set("where", encodeWhere(select.where()));
        if (!select.columns().isEmpty()) {
          json.set("columns", strings(select.columns()));
        }
      }
      case Operation.Update update -> {
        json.put("op", "update")
            .put("table", update.table())
            .set("where", encodeWhere(update.where()));
        json.set("row", encodeRow(update.row()));
      }
      case Operation.Mutate mutate -> {
        ArrayNode mutations = JSON.arrayNode();
        mutate
            .mutations()
            .forEach(
                m ->
                    mutations.add(
                        JSON.arrayNode().add(m.column()).add(m.mutator()).add(encode(m.value()))));
        json.put("op", "mutate")
            .put("table", mutate.table())
            .set("where", encodeWhere(mutate.where()));
        json.set("mutations", mutations);
      }
      case Operation.Delete delete ->
          json.put("op", "delete")
              .put("table", delete.table())
              .set("where", encodeWhere(delete.where()));
      case Operation.Wait wait -> {
        json.put("op", "wait").put("table", wait.table()).set("where", encodeWhere(wait.where()));
        json.set("columns", strings(wait.columns()));
        json.put("until", wait.untilEqual() ? "==" : "!=");
        ArrayNode rows = JSON.arrayNode();
        wait.rows().forEach(r -> rows.add(encodeRow(r)));
        json.set("rows", rows);
        wait.timeout().ifPresent(t -> json.put("timeout", t.toMillis()));
      }
      case Operation.Comment comment -> json.put("op", "comment").put("comment", comment.text());
    }
    return json;
  }

  private static ArrayNode encodeWhere(List<Condition> where) {
    ArrayNode json = JSON.arrayNode();
    where.forEach(
        c -> json.add(JSON.arrayNode().add(c.column()).add(c.function()).add(encode(c.value()))));
    return json;
  }

  private static ArrayNode strings(List<String> values) {
    ArrayNode json = JSON.arrayNode();
    values.forEach(json::add);
    return json;
  }

  static String opName(Operation operation) {
    return switch (operation) {
      case Operation.Insert i -> "insert";
      case Operation.Select s -> "select";
      case Operation.Update u -> "update";
      case Operation.Mutate m -> "mutate";
      case Operation.Delete d -> "delete";
      case Operation.Wait w -> "wait";
      case Operation.Comment c -> "comment";
    };
  }

  /**
   * Reads a {@code transact} result array. Any error object (in an operation's slot, or the extra
   * slot after the last operation for a failed commit) becomes an exception.
   */
  static List<OperationResult> decodeTransactResult(List<Operation> operations, JsonNode result) {
    if (!result.isArray()) {
      throw new IllegalArgumentException("transact result is not an array: " + result);
    }
    for (int i = 0; i < result.size(); i++) {
      JsonNode slot = result.get(i);
      if (slot.isObject() && slot.has("error") && !slot.get("error").isNull()) {
        String op = i < operations.size() ? opName(operations.get(i)) : "commit";
        throw new OvsdbTransactionException(
            i < operations.size() ? i : -1,
            op,
            slot.get("error").asString(),
            slot.path("details").asString(""));
      }
    }
    if (result.size() < operations.size()) {
      throw new IllegalArgumentException(
          "transact returned "
              + result.size()
              + " results for "
              + operations.size()
              + " operations: "
              + result);
    }
    List<OperationResult> results = new ArrayList<>();
    for (int i = 0; i < operations.size(); i++) {
      JsonNode slot = result.get(i);
      Optional<Uuid> uuid =
          slot.has("uuid") ? Optional.of((Uuid) decode(slot.get("uuid"))) : Optional.empty();
      List<Row> rows = new ArrayList<>();
      slot.path("rows").forEach(r -> rows.add(decodeRow(r, null)));
      Optional<Long> count =
          slot.has("count") ? Optional.of(slot.get("count").longValue()) : Optional.empty();
      results.add(new OperationResult(uuid, rows, count));
    }
    return results;
  }

  /** Reads a {@code <table-updates>} object (monitor reply or {@code update} notification). */
  static TableUpdates decodeTableUpdates(JsonNode json, boolean initial) {
    Map<String, List<RowUpdate>> tables = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> table : json.properties()) {
      List<RowUpdate> rows = new ArrayList<>();
      for (Map.Entry<String, JsonNode> row : table.getValue().properties()) {
        Uuid uuid = new Uuid(row.getKey());
        JsonNode old = row.getValue().get("old");
        JsonNode now = row.getValue().get("new");
        rows.add(
            new RowUpdate(
                uuid,
                old == null ? Optional.empty() : Optional.of(decodeRow(old, uuid)),
                now == null ? Optional.empty() : Optional.of(decodeRow(now, uuid))));
      }
      tables.put(table.getKey(), List.copyOf(rows));
    }
    return new TableUpdates(initial, tables);
  }
}
