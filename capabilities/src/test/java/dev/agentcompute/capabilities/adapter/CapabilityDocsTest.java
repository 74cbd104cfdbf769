package dev.agentcompute.capabilities.adapter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.config.Quotas;
import dev.agentcompute.capabilities.model.TtlPolicy;
import dev.agentcompute.capabilities.model.WaitStage;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Description;
import dev.agentcompute.codemode.FieldShape;
import dev.agentcompute.codemode.SearchResult;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Subject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every capability's description teaches: it is not its summary, names every parameter and output
 * field, and has an example call; and search finds capabilities by the words agents use.
 */
class CapabilityDocsTest {
  private static Server server;
  private static List<CapabilityDefinition<?, ?>> definitions;
  private static final Subject SUBJECT = new Subject("local");
  static final int MAX_DESCRIPTION_BYTES = 1536;

  @BeforeAll
  static void build() throws Exception {
    definitions = OfflineCatalogue.definitions();
    server = OfflineCatalogue.server(definitions);
  }

  @AfterAll
  static void close() {
    server.close();
  }

  @Test
  void everyDescriptionTeachesMoreThanItsSummary() throws Exception {
    assertThat(definitions).hasSizeGreaterThanOrEqualTo(39);
    for (CapabilityDefinition<?, ?> d : definitions) {
      assertThat(CapabilityDocs.has(d.name())).as("doc of %s", d.name()).isTrue();
      Description desc = server.describe(Context.background(), SUBJECT, d.name());
      assertThat(desc.description()).as(d.name()).isNotEqualTo(desc.summary());
      assertThat(desc.description()).as(d.name()).contains("Example: ");
      // Ours: short enough to read in one describe (CodeMode bounds terms, not descriptions).
      assertThat(desc.description().getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
          .as(d.name())
          .isLessThanOrEqualTo(MAX_DESCRIPTION_BYTES);
      String example = desc.description().substring(desc.description().indexOf("Example: "));
      assertThat(example).as(d.name()).contains(d.name() + "(");
      for (FieldShape in : desc.input()) {
        assertThat(desc.description())
            .as("%s parameter %s", d.name(), in.name())
            .contains(in.name());
      }
      for (FieldShape out : desc.output()) {
        assertThat(desc.description())
            .as("%s output %s", d.name(), out.name())
            .contains(out.name());
      }
      if (desc.input().isEmpty()) {
        assertThat(desc.description()).as(d.name()).contains("No parameters");
      }
      if (desc.output().isEmpty()) {
        assertThat(desc.description()).as(d.name()).contains("Output: empty dict");
      }
    }
  }

  @Test
  void parametersWithAFormatOrClosedSetStateIt() throws Exception {
    assertThat(describe("instance.wait"))
        .contains("'running'", "'agent'", "'network'", "'desktop'", "'stopped'");
    assertThat(describe("net.create")).contains("default: the sandbox's own", "\"10.210.5.0/24\"");
    assertThat(describe("instance.exec"))
        .contains("KEY=VALUE", "\"A=1\\nB=2\"", "16 KiB", "48 KiB");
    assertThat(describe("instance.file.write")).contains("octal", "65536 bytes");
    assertThat(describe("sandbox.create")).contains("minutes", "240", "1440");
    assertThat(describe("sandbox.extend")).contains("never shortens");
    assertThat(describe("instance.create")).contains("empty right after creation", "MiB");
    assertThat(describe("net.acl.add"))
        .contains("'ingress' or 'egress'", "'allow', 'drop' or 'reject'");
  }

  @Test
  void ttlTextsStateTheConfiguredValuesOfThisServer() throws Exception {
    assertThat(describe("sandbox.create"))
        .contains("240 minutes on this server, sandbox.default_ttl_minutes")
        .contains("1440 minutes on this server, sandbox.max_ttl_minutes")
        .contains("sandbox.limits");
    ComputeConfig config =
        ComputeConfig.defaults()
            .withTtl(new TtlPolicy(Duration.ofMinutes(45), Duration.ofMinutes(300)))
            .withQuotas(Quotas.defaults().withSandboxesPerIdentity(3));
    List<CapabilityDefinition<?, ?>> configured = OfflineCatalogue.definitions(config);
    try (Server other = OfflineCatalogue.server(configured)) {
      String create = other.describe(Context.background(), SUBJECT, "sandbox.create").description();
      String extend = other.describe(Context.background(), SUBJECT, "sandbox.extend").description();
      assertThat(create)
          .contains("default (45 minutes on this server, sandbox.default_ttl_minutes)")
          .contains("maximum (300 minutes on this server, sandbox.max_ttl_minutes) is refused")
          .doesNotContain("unless configured", "240", "1440");
      assertThat(extend)
          .contains("at most the server's maximum (300 minutes on this server")
          .contains("(4320 minutes on this server, sandbox.max_lifetime_minutes)");
    }
    for (CapabilityDefinition<?, ?> d : configured) {
      assertThat(d.description()).as(d.name()).doesNotContain("{default_ttl}", "{max_ttl}");
      assertThat(d.description()).as(d.name()).doesNotContain("{max_lifetime}");
    }
    // Without a server's configuration (CapabilityDocs alone), the text says what is configurable.
    assertThat(CapabilityDocs.of("sandbox.create").description())
        .contains("sandbox.default_ttl_minutes, 240 minutes unless configured")
        .contains("sandbox.max_ttl_minutes, 1440 minutes unless configured");
  }

  private static String describe(String name) throws Exception {
    return server.describe(Context.background(), SUBJECT, name).description();
  }

  private static List<String> top(String query, int n) throws Exception {
    return server.search(Context.background(), SUBJECT, query).results().stream()
        .limit(n)
        .map(SearchResult::name)
        .toList();
  }

  @Test
  void searchFindsCapabilitiesByAnAgentsWords() throws Exception {
    assertThat(top("container image catalogue", 1)).containsExactly("image.list");
    assertThat(top("private network between containers", 1)).containsExactly("net.create");
    assertThat(top("instance ip address", 1)).containsExactly("instance.get");
    assertThat(top("default ttl maximum limit", 2)).contains("sandbox.create");
    assertThat(top("run shell command", 1)).containsExactly("instance.exec");
    assertThat(top("copy file into container", 2)).contains("instance.file.write");
    assertThat(top("download file", 2))
        .containsExactlyInAnyOrder("instance.file.read", "instance.file.download_url");
    assertThat(top("upload a large binary file", 1)).containsExactly("instance.file.upload_url");
    assertThat(top("list directory", 1)).containsExactly("instance.file.list");
    assertThat(top("file size", 1)).containsExactly("instance.file.stat");
    assertThat(top("sandbox lifetime expiry", 2)).contains("sandbox.extend");
    assertThat(top("my quota and limits", 1)).containsExactly("sandbox.limits");
    assertThat(top("subnet lan", 1)).containsExactly("net.create");
    assertThat(top("template", 2)).contains("image.list");
  }

  @Test
  void aMultiStepQueryFindsEveryStep() throws Exception {
    // Ranked whole, this query found only instance.* (two thirds of its 8 tokens in one entry).
    List<String> page = top("create sandbox, list images, start container, run command", 20);
    assertThat(page).contains("sandbox.create", "image.list", "instance.create", "instance.exec");
    assertThat(page).doesNotHaveDuplicates();
    assertThat(top("create sandbox, list images, start container, run command", 4))
        .containsExactly("sandbox.create", "image.list", "instance.create", "instance.exec");
    assertThat(top("list images and then run command", 2))
        .containsExactly("image.list", "instance.exec");
  }

  @Test
  void aSingleClauseQueryRanksAsBefore() throws Exception {
    // The ranking the whole-query rule gave before clauses were split.
    assertThat(top("instance ip address", 20))
        .containsExactly(
            "instance.get",
            "sandbox.get",
            "net.attach",
            "net.forward",
            "instance.wait",
            "instance.list",
            "instance.create",
            "net.acl.add",
            "instance.snapshot.restore",
            // Since its summary says instances get "addresses" only with dhcp=True.
            "net.create",
            "desktop.info");
    assertThat(top("create sandbox list images start container run command", 20))
        .containsExactly(
            "instance.create",
            "instance.exec",
            "instance.process.list",
            "instance.wait",
            "instance.process.get");
  }

  @Test
  void netCreateSaysABridgeGivesAddressesOnlyWithDhcp() throws Exception {
    // A bridge network defaults to dhcp=False, and its instances then get no address: the
    // summary search_api shows and the description describe_api shows both say so.
    String rule = "instances get addresses only with dhcp=True";
    SearchResult hit =
        server.search(Context.background(), SUBJECT, "net.create").results().getFirst();
    assertThat(hit.name()).isEqualTo("net.create");
    assertThat(hit.summary()).containsIgnoringCase(rule).contains("default False on bridge");
    assertThat(describe("net.create")).contains(rule, "pass dhcp=True");
  }

  @Test
  void instanceWaitsSignatureListsTheStages() throws Exception {
    Description d = server.describe(Context.background(), SUBJECT, "instance.wait");
    String stages =
        String.join(
            " | ",
            java.util.Arrays.stream(WaitStage.values())
                .map(w -> "\"" + w.wireName() + "\"")
                .toList());
    assertThat(d.signature())
        .isEqualTo(
            "instance.wait(*, sandbox: str, name: str, until: "
                + stages
                + ", timeout_seconds: int | None)")
        .contains("until: \"running\" | \"agent\" | \"network\" | \"desktop\" | \"stopped\",");
    // The input shape (the schema contract) is unchanged.
    assertThat(d.input()).contains(new FieldShape("until", "str", true));
    assertThat(server.search(Context.background(), SUBJECT, "instance.wait").results().getFirst())
        .isEqualTo(new SearchResult("instance.wait", d.signature(), d.summary()));
  }
}
