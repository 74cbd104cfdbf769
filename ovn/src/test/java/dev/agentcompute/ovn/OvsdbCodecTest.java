package dev.agentcompute.ovn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class OvsdbCodecTest {
  private static final JsonMapper MAPPER = JsonMapper.builder().build();
  private static final Uuid U1 = new Uuid("36bdf9b0-0c5b-4ba0-8ab6-5f0e4e1d3c11");
  private static final Uuid U2 = new Uuid("0a7f6b1e-2d3c-4b5a-9e8f-7d6c5b4a3928");

  private static String json(Object value) {
    return OvsdbCodec.encode(value).toString();
  }

  private static JsonNode parse(String json) {
    return MAPPER.readTree(json);
  }

  /** Compares the wire text (Jackson's node equality tells IntNode from LongNode). */
  private static void assertJson(JsonNode actual, String expected) {
    assertThat(actual.toString()).isEqualTo(parse(expected).toString());
  }

  @Test
  void atomsEncodeAsPlainJson() {
    assertThat(json("ls0")).isEqualTo("\"ls0\"");
    assertThat(json(42)).isEqualTo("42");
    assertThat(json(42L)).isEqualTo("42");
    assertThat(json(1.5)).isEqualTo("1.5");
    assertThat(json(true)).isEqualTo("true");
  }

  @Test
  void uuidsAndNamedUuidsAreTaggedPairs() {
    assertThat(json(U1)).isEqualTo("[\"uuid\",\"" + U1.value() + "\"]");
    assertThat(json(new NamedUuid("row_1"))).isEqualTo("[\"named-uuid\",\"row_1\"]");
  }

  @Test
  void setsAreTaggedAndASingleElementSetIsTheBareAtom() {
    assertThat(json(Set.of())).isEqualTo("[\"set\",[]]");
    assertThat(json(List.of("a"))).isEqualTo("\"a\"");
    assertThat(json(Set.of(U1))).isEqualTo("[\"uuid\",\"" + U1.value() + "\"]");
    assertThat(json(List.of("a", "b"))).isEqualTo("[\"set\",[\"a\",\"b\"]]");
    assertThat(json(List.of(U1, U2)))
        .isEqualTo(
            "[\"set\",[[\"uuid\",\"" + U1.value() + "\"],[\"uuid\",\"" + U2.value() + "\"]]]");
  }

  @Test
  void mapsAreListsOfPairsEvenWithOneEntry() {
    assertThat(json(Map.of())).isEqualTo("[\"map\",[]]");
    assertThat(json(Map.of("k", "v"))).isEqualTo("[\"map\",[[\"k\",\"v\"]]]");
    Map<String, Object> two = new LinkedHashMap<>();
    two.put("a", U1);
    two.put("b", 7L);
    assertThat(json(two))
        .isEqualTo("[\"map\",[[\"a\",[\"uuid\",\"" + U1.value() + "\"]],[\"b\",7]]]");
  }

  @Test
  void nestedCollectionsAndUnknownTypesAreRefused() {
    assertThatThrownBy(() -> json(List.of(List.of("a"), "b")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("atom");
    assertThatThrownBy(() -> json(new Object())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> json(Double.NaN)).hasMessageContaining("finite");
  }

  @Test
  void decodesEveryValueForm() {
    assertThat(OvsdbCodec.decode(parse("\"x\""))).isEqualTo("x");
    assertThat(OvsdbCodec.decode(parse("7"))).isEqualTo(7L);
    assertThat(OvsdbCodec.decode(parse("2.5"))).isEqualTo(2.5);
    assertThat(OvsdbCodec.decode(parse("false"))).isEqualTo(false);
    assertThat(OvsdbCodec.decode(parse("[\"uuid\",\"" + U1.value() + "\"]"))).isEqualTo(U1);
    assertThat(OvsdbCodec.decode(parse("[\"named-uuid\",\"n\"]"))).isEqualTo(new NamedUuid("n"));
    assertThat(OvsdbCodec.decode(parse("[\"set\",[]]"))).isEqualTo(Set.of());
    assertThat(OvsdbCodec.decode(parse("[\"set\",[1,2]]"))).isEqualTo(Set.of(1L, 2L));
    assertThat(OvsdbCodec.decode(parse("[\"map\",[[\"a\",\"b\"],[\"c\",\"d\"]]]")))
        .isEqualTo(Map.of("a", "b", "c", "d"));
  }

  @Test
  void roundTripsThroughTheWireForm() {
    for (Object value :
        List.of("s", 3L, true, U1, Set.of(), Set.of("a", "b"), Map.of("k", U2), Map.of())) {
      assertThat(OvsdbCodec.decode(OvsdbCodec.encode(value))).isEqualTo(value);
    }
  }

  @Test
  void malformedValuesAreRejectedWithTheOffendingJson() {
    assertThatThrownBy(() -> OvsdbCodec.decode(parse("[\"list\",[]]")))
        .hasMessageContaining("[\"list\",[]]");
    assertThatThrownBy(() -> OvsdbCodec.decode(parse("[\"set\",[[\"set\",[]]]]")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> OvsdbCodec.decode(parse("[\"uuid\",\"nope\"]")))
        .hasMessageContaining("nope");
    assertThatThrownBy(() -> OvsdbCodec.decode(parse("null")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rowReadersAcceptBareAtomsForSetsAndOptionals() {
    Row row =
        OvsdbCodec.decodeRow(
            parse(
                """
                {"name":"ls","ports":["uuid","%s"],"acls":["set",[]],"up":["set",[]],"enabled":true,
                 "external_ids":["map",[["k","v"]]]}"""
                    .formatted(U1.value())),
            U2);
    assertThat(row.uuid()).isEqualTo(U2);
    assertThat(row.set("ports", Uuid.class)).containsExactly(U1);
    assertThat(row.set("acls", Uuid.class)).isEmpty();
    assertThat(row.optional("up", Boolean.class)).isEmpty();
    assertThat(row.optional("enabled", Boolean.class)).contains(true);
    assertThat(row.stringMap("external_ids")).containsExactly(Map.entry("k", "v"));
    assertThatThrownBy(() -> row.string("missing")).hasMessageContaining("missing");
    assertThatThrownBy(() -> row.integer("name")).hasMessageContaining("expected Long");
  }

  @Test
  void operationsEncodeAsRfc7047Objects() {
    Operation.Insert insert =
        Operation.insert("Logical_Switch")
            .value("name", "ls1")
            .value("external_ids", Map.of("owner", "t"))
            .uuidName("new_ls");
    assertJson(
        OvsdbCodec.encode(insert),
        """
                {"op":"insert","table":"Logical_Switch","row":{"name":"ls1","external_ids":["map",[["owner","t"]]]},
                 "uuid-name":"new_ls"}""");
    assertJson(
        OvsdbCodec.encode(
            Operation.mutate("Logical_Switch")
                .where(Condition.eq("name", "ls1"))
                .with(
                    Mutation.insert("ports", Set.of(insert.ref())),
                    Mutation.delete("external_ids", Set.of("owner")))),
        """
                        {"op":"mutate","table":"Logical_Switch","where":[["name","==","ls1"]],
                         "mutations":[["ports","insert",["named-uuid","new_ls"]],["external_ids","delete","owner"]]}""");
    assertJson(
        OvsdbCodec.encode(Operation.update("ACL").where(Condition.uuidIs(U1)).set("priority", 100)),
        """
                        {"op":"update","table":"ACL","where":[["_uuid","==",["uuid","%s"]]],"row":{"priority":100}}"""
            .formatted(U1.value()));
    assertJson(
        OvsdbCodec.encode(Operation.select("NAT").columns("type")),
        "{\"op\":\"select\",\"table\":\"NAT\",\"where\":[],\"columns\":[\"type\"]}");
    assertJson(
        OvsdbCodec.encode(Operation.delete("NAT").where(Condition.ne("type", "snat"))),
        "{\"op\":\"delete\",\"table\":\"NAT\",\"where\":[[\"type\",\"!=\",\"snat\"]]}");
    assertJson(
        OvsdbCodec.encode(
            Operation.waitUntil("Logical_Switch")
                .where(Condition.eq("name", "x"))
                .columns("name")
                .untilNotEqual()
                .row(Map.of("name", "x"))
                .timeout(java.time.Duration.ofMillis(250))),
        """
                        {"op":"wait","table":"Logical_Switch","where":[["name","==","x"]],"columns":["name"],
                         "until":"!=","rows":[{"name":"x"}],"timeout":250}""");
    assertJson(
        OvsdbCodec.encode(Operation.comment("hi")), "{\"op\":\"comment\",\"comment\":\"hi\"}");
  }

  @Test
  void transactResultsAndErrors() {
    List<Operation> ops =
        List.of(
            Operation.insert("Logical_Switch"),
            Operation.select("Logical_Switch"),
            Operation.delete("Logical_Switch"));
    List<OperationResult> results =
        OvsdbCodec.decodeTransactResult(
            ops,
            parse(
                """
                [{"uuid":["uuid","%s"]},{"rows":[{"name":"a"}]},{"count":2}]"""
                    .formatted(U1.value())));
    assertThat(results.get(0).insertedUuid()).isEqualTo(U1);
    assertThat(results.get(1).rows()).extracting(r -> r.string("name")).containsExactly("a");
    assertThat(results.get(2).count()).contains(2L);

    assertThatThrownBy(
            () ->
                OvsdbCodec.decodeTransactResult(
                    ops,
                    parse(
                        """
                [{"uuid":["uuid","%s"]},{"error":"constraint violation","details":"bad"},null]"""
                            .formatted(U1.value()))))
        .isInstanceOfSatisfying(
            OvsdbTransactionException.class,
            e -> {
              assertThat(e.operationIndex()).isEqualTo(1);
              assertThat(e.operation()).isEqualTo("select");
              assertThat(e.error()).isEqualTo("constraint violation");
              assertThat(e.details()).isEqualTo("bad");
            });
    assertThatThrownBy(
            () ->
                OvsdbCodec.decodeTransactResult(
                    ops,
                    parse(
                        """
                [{},{"rows":[]},{"count":0},{"error":"referential integrity violation","details":"d"}]""")))
        .isInstanceOfSatisfying(
            OvsdbTransactionException.class,
            e -> {
              assertThat(e.operationIndex()).isEqualTo(-1);
              assertThat(e.getMessage()).contains("the commit", "referential integrity violation");
            });
  }

  @Test
  void tableUpdatesCarryInsertModifyDelete() {
    TableUpdates updates =
        OvsdbCodec.decodeTableUpdates(
            parse(
                """
                {"Logical_Switch":{
                  "%s":{"new":{"name":"a"}},
                  "%s":{"old":{"name":"b"},"new":{"name":"c"}}},
                 "ACL":{"%s":{"old":{"priority":1}}}}"""
                    .formatted(U1.value(), U2.value(), U1.value())),
            false);
    assertThat(updates.initial()).isFalse();
    assertThat(updates.table("Logical_Switch"))
        .satisfiesExactly(
            insert -> {
              assertThat(insert.isInsert()).isTrue();
              assertThat(insert.after().orElseThrow().uuid()).isEqualTo(U1);
            },
            modify -> {
              assertThat(modify.isModify()).isTrue();
              assertThat(modify.after().orElseThrow().string("name")).isEqualTo("c");
            });
    assertThat(updates.table("ACL")).singleElement().matches(RowUpdate::isDelete);
    assertThat(updates.table("NAT")).isEmpty();
  }

  @Test
  void endpointsParseTheOvsForms() {
    assertThat(OvsdbEndpoint.parse("tcp:127.0.0.1:6641"))
        .isEqualTo(new OvsdbEndpoint.Tcp("127.0.0.1", 6641));
    assertThat(OvsdbEndpoint.parse("tcp:[::1]:6641")).isEqualTo(new OvsdbEndpoint.Tcp("::1", 6641));
    assertThat(OvsdbEndpoint.parse("unix:/run/x.sock"))
        .isEqualTo(new OvsdbEndpoint.Unix(java.nio.file.Path.of("/run/x.sock")));
    assertThat(OvsdbEndpoint.parse("tcp:[::1]:6641").toString()).isEqualTo("tcp:[::1]:6641");
    assertThatThrownBy(() -> OvsdbEndpoint.parse("ssl:1.2.3.4:1"))
        .hasMessageContaining("OvsdbEndpoint.tls");
    assertThatThrownBy(() -> OvsdbEndpoint.parse("tcp:host:99999")).hasMessageContaining("65535");
  }
}
