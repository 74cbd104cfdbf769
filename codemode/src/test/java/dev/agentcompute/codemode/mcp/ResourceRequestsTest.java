package dev.agentcompute.codemode.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.ResourceBody;
import dev.agentcompute.codemode.ResourceDescription;
import dev.agentcompute.codemode.ResourceItem;
import dev.agentcompute.codemode.ResourceSource;
import dev.agentcompute.codemode.Resources;
import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.ResourcePolicy;
import dev.agentcompute.codemode.authz.Subject;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The resources JSON-RPC methods as a transport routes them (docs/reference/policy.md#resources).
 */
class ResourceRequestsTest {

  static final ResourceDescription NOTES =
      ResourceDescription.template("notes://{id}", "note").withMimeType("text/plain");
  static ResourceRequests requests;

  /**
   * alice may see everything but read no "secret" note; bob sees nothing; note "gone" is hidden.
   */
  static final ResourcePolicy POLICY =
      new ResourcePolicy() {
        @Override
        public void discover(Context ctx, Subject subject, ResourceDescription d) {}

        @Override
        public void visible(Context ctx, Subject subject, ResourceItem item) throws AccessDenied {
          if (!subject.id().equals("alice") || item.uri().endsWith("gone")) {
            throw new AccessDenied();
          }
        }

        @Override
        public void read(Context ctx, Subject subject, ResourceItem item) throws AccessDenied {
          if (item.uri().contains("secret")) {
            throw new AccessDenied();
          }
        }

        @Override
        public String scopeKey(Context ctx, Subject subject) {
          return subject.id();
        }
      };

  @BeforeAll
  static void build() throws Exception {
    Resources resources =
        Resources.builder(POLICY)
            .template(
                NOTES,
                (ctx, s) ->
                    List.of(
                        ResourceItem.of(NOTES, "notes://a", "a"),
                        ResourceItem.of(NOTES, "notes://secret", "secret")),
                (ctx, s, item) -> ResourceBody.text("note " + item.variables().get("id")))
            .source(pair())
            .build();
    requests = CodeModeMcp.resources(resources, InvocationResolver.contextSubject());
  }

  /** pair://x reads as x/open and x/secret. */
  static ResourceSource pair() {
    ResourceDescription d = ResourceDescription.template("pair://{x}", "pair");
    return new ResourceSource() {
      @Override
      public ResourceDescription description() {
        return d;
      }

      @Override
      public List<ResourceItem> list(Context ctx, Subject subject) {
        return List.of();
      }

      @Override
      public List<ResourceItem> resolve(Context ctx, Subject subject, String uri) {
        return uri.startsWith("pair://")
            ? List.of(
                new ResourceItem(uri + "/open", "open", "", "", "", d, Map.of()),
                new ResourceItem(uri + "/secret", "secret", "", "", "", d, Map.of()))
            : List.of();
      }

      @Override
      public ResourceBody read(Context ctx, Subject subject, ResourceItem item) {
        return ResourceBody.blob(new byte[] {1, 2, 3});
      }
    };
  }

  static McpSchema.JSONRPCResponse call(String who, String method, Map<String, Object> params) {
    McpTransportContext transport =
        McpTransportContext.create(Map.of(Subject.TRANSPORT_CONTEXT_KEY, new Subject(who)));
    return requests.handle(transport, new McpSchema.JSONRPCRequest("2.0", method, 7, params));
  }

  @Test
  void listAnswersTheCallersItemsInUriOrder() {
    var r = (McpSchema.ListResourcesResult) call("alice", "resources/list", Map.of()).result();

    assertThat(r.resources())
        .extracting(McpSchema.Resource::uri)
        .containsExactly("notes://a", "notes://secret");
    assertThat(r.resources().getFirst().mimeType()).isEqualTo("text/plain");
    assertThat(r.nextCursor()).isNull();
    assertThat(
            ((McpSchema.ListResourcesResult) call("bob", "resources/list", Map.of()).result())
                .resources())
        .isEmpty();
  }

  @Test
  void templatesAreListed() {
    var r =
        (McpSchema.ListResourceTemplatesResult)
            call("alice", "resources/templates/list", Map.of()).result();

    assertThat(r.resourceTemplates())
        .extracting(McpSchema.ResourceTemplate::uriTemplate)
        .containsExactly("notes://{id}", "pair://{x}");
  }

  @Test
  void aReadAnswersTheBody() {
    var r =
        (McpSchema.ReadResourceResult)
            call("alice", "resources/read", Map.of("uri", "notes://a")).result();

    assertThat(r.contents())
        .containsExactly(new McpSchema.TextResourceContents("notes://a", "text/plain", "note a"));
    assertThat(r.meta()).isNull();
  }

  @Test
  void anUnknownOrHiddenResourceIsMinus32002ResourceNotFound() {
    for (var error :
        List.of(
            call("alice", "resources/read", Map.of("uri", "nope://x")).error(),
            call("alice", "resources/read", Map.of("uri", "notes://gone")).error(),
            call("bob", "resources/read", Map.of("uri", "notes://a")).error())) {
      assertThat(error.code()).isEqualTo(-32002);
      assertThat(error.message()).isEqualTo("Resource not found");
    }
  }

  @Test
  void aVisibleButUnreadableResourceIsMinus32002NotReadable() {
    var error = call("alice", "resources/read", Map.of("uri", "notes://secret")).error();

    assertThat(error.code()).isEqualTo(-32002);
    assertThat(error.message()).isEqualTo("resource not readable");
  }

  @Test
  void aReadOfSeveralItemsWarnsInMetaAboutTheDeniedOne() {
    var r =
        (McpSchema.ReadResourceResult)
            call("alice", "resources/read", Map.of("uri", "pair://p")).result();

    assertThat(r.contents())
        .containsExactly(new McpSchema.BlobResourceContents("pair://p/open", null, "AQID"));
    assertThat(r.meta())
        .isEqualTo(Map.of("dev.agentcompute/warnings", List.of("pair://p/secret: read denied")));
  }

  @Test
  void anInvalidCursorIsMinus32602() {
    var error = call("alice", "resources/list", Map.of("cursor", "resources.x.y")).error();

    assertThat(error.code()).isEqualTo(-32602);
    assertThat(error.message()).isEqualTo("invalid cursor");
    assertThat(call("alice", "resources/templates/list", Map.of("cursor", "x")).error().code())
        .isEqualTo(-32602);
  }

  @Test
  void aCallerWithoutASubjectIsRefused() {
    var r =
        requests.handle(
            McpTransportContext.EMPTY,
            new McpSchema.JSONRPCRequest("2.0", "resources/list", 1, Map.of()));

    assertThat(r.error().message()).isEqualTo("unauthenticated");
    assertThat(r.id()).isEqualTo(1);
  }

  @Test
  void aReadWithoutAUriIsInvalidParams() {
    assertThat(call("alice", "resources/read", Map.of()).error().code()).isEqualTo(-32602);
  }

  @Test
  void theRoutedMethodsAreExactlyTheThreeResourcesMethods() {
    assertThat(ResourceRequests.METHODS)
        .containsExactlyInAnyOrder("resources/list", "resources/templates/list", "resources/read");
  }
}
