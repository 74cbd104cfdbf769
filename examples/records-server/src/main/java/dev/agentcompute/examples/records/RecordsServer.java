package dev.agentcompute.examples.records;

import dev.agentcompute.codemode.AgentError;
import dev.agentcompute.codemode.Capability;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.Confirmation;
import dev.agentcompute.codemode.Hints;
import dev.agentcompute.codemode.Limits;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.ResourceBody;
import dev.agentcompute.codemode.ResourceDescription;
import dev.agentcompute.codemode.ResourceItem;
import dev.agentcompute.codemode.Resources;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.StarlarkName;
import dev.agentcompute.codemode.Unsigned;
import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.Authorizer;
import dev.agentcompute.codemode.authz.ResourcePolicy;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.mcp.CodeModeMcp;
import dev.agentcompute.codemode.mcp.InvocationResolver;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * A runnable stdio CodeMode server with a handful of deterministic capabilities: the "first server"
 * of docs/first-server.md. Usage: {@code records-server [--authorizer
 * allow-all|deny-forbidden|error|throw] [--limit Name=value]... [--subject ID]}
 */
public final class RecordsServer {

  record LookupIn(String key, OptionalLong limit) {}

  record LookupOut(String key, long count) {}

  record Empty() {}

  record Status(String state) {}

  record Window(String from, @StarlarkName("until-day") String untilDay) {}

  record Filter(
      String owner, List<String> states, @StarlarkName("min_score") OptionalDouble minScore) {}

  record QueryIn(
      List<String> tags, Filter filter, Map<String, String> labels, Optional<Window> window) {}

  record QueryOut(String owner, @StarlarkName("tag_count") long tagCount) {}

  record FailIn(String mode, Optional<String> message) {}

  record Ok(boolean ok) {}

  record ScoreIn(double score) {}

  record ScoreOut(double score) {}

  record BigIn(@Unsigned long n) {}

  record BigOut(@Unsigned long n) {}

  record BlobIn(long size) {}

  record BlobOut(String data) {}

  record SinkIn(String data) {}

  record SinkOut(long n) {}

  record UnitsIn(@Unsigned byte level, int offset, float ratio, byte[] bytes) {}

  record Echo(String value) {}

  record DeleteOut(String key, boolean deleted) {}

  private RecordsServer() {}

  public static void main(String[] args) throws Exception {
    String authorizer = "allow-all";
    String subject = "local-user";
    Limits limits = Limits.unset();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--authorizer" -> authorizer = value(args, ++i, "--authorizer");
        case "--subject" -> subject = value(args, ++i, "--subject");
        case "--limit" -> {
          String kv = value(args, ++i, "--limit");
          int eq = kv.indexOf('=');
          if (eq < 0) {
            usage("--limit needs Name=value, got '" + kv + "'");
          }
          limits = limits.withSetting(kv.substring(0, eq), kv.substring(eq + 1));
        }
        default -> usage("unknown argument '" + args[i] + "'");
      }
    }
    Server server = build(authorizer(authorizer), limits);
    // Returns when stdin closes, with the server and its workers stopped.
    CodeModeMcp.runStdio(
        server, resources(), InvocationResolver.staticSubject(new Subject(subject)), null);
  }

  static Authorizer authorizer(String name) {
    return switch (name) {
      case "allow-all" -> Authorizer.allowAll();
      case "deny-forbidden" ->
          (ctx, req) -> {
            if ("forbidden".equals(req.arguments().get("key"))) {
              throw new AccessDenied("key is forbidden");
            }
          };
      case "error" ->
          (ctx, req) -> {
            throw new Exception("policy backend unavailable");
          };
      case "throw" ->
          (ctx, req) -> {
            throw new IllegalStateException("policy bug");
          };
      default -> {
        usage(
            "unknown authorizer '"
                + name
                + "' (expected allow-all, deny-forbidden, error or throw)");
        yield null;
      }
    };
  }

  static final Hints READ_ONLY =
      Hints.defaults()
          .withReadOnly(true)
          .withDestructive(false)
          .withIdempotent(true)
          .withOpenWorld(false);

  static final ResourceDescription STATUS =
      ResourceDescription.resource("records://status", "status")
          .withTitle("Server health")
          .withMimeType("application/json");
  static final ResourceDescription ENTRY =
      ResourceDescription.template("records://entries/{key}", "entry")
          .withDescription("One record, as records.lookup returns it.")
          .withMimeType("application/json");

  /**
   * The example resources: the health status and a record per key (entries a, b and c are listed;
   * any key can be read).
   */
  public static Resources resources() throws Exception {
    return Resources.builder(ResourcePolicy.allowRegistered())
        .resource(STATUS, (ctx, s, item) -> ResourceBody.text("{\"state\":\"ok\"}"))
        .template(
            ENTRY,
            (ctx, s) ->
                List.of("a", "b", "c").stream()
                    .map(k -> ResourceItem.of(ENTRY, "records://entries/" + k, k))
                    .toList(),
            (ctx, s, item) ->
                ResourceBody.text("{\"count\":0,\"key\":\"" + item.variables().get("key") + "\"}"))
        .build();
  }

  /**
   * Registers the example capabilities; records.entry.hidden is always disabled and every
   * records.delete needs the user's confirmation.
   */
  public static Server build(Authorizer authorizer, Limits limits) throws Exception {
    return CodeMode.builder(
            Options.builder()
                .authorizer(authorizer)
                .disable("records.entry.hidden")
                .limits(limits)
                .build())
        .register(
            Capability.named("records.lookup", LookupIn.class, LookupOut.class)
                .id("records.entry.lookup")
                .summary("Look up one record by key.")
                .description("Returns one deterministic record for the supplied key.")
                .hints(READ_ONLY)
                .handler((ctx, s, in) -> new LookupOut(in.key(), in.limit().orElse(0))))
        .register(
            Capability.named("records.delete", LookupIn.class, DeleteOut.class)
                .id("records.entry.delete")
                .summary("Delete one record by key.")
                .hints(Hints.defaults().withIdempotent(true).withOpenWorld(false))
                .confirmation(Confirmation.REQUIRED)
                .handler((ctx, s, in) -> new DeleteOut(in.key(), true)))
        .register(
            Capability.named("health.status", Empty.class, Status.class)
                .id("health.entry.status")
                .summary("Report current health.")
                .description("Returns one deterministic health status object.")
                .handler((ctx, s, in) -> new Status("ok")))
        .register(
            Capability.named("records.hidden", LookupIn.class, LookupOut.class)
                .id("records.entry.hidden")
                .summary("Look up one hidden record by key.")
                .description("Returns one deterministic record for the supplied key.")
                .handler(
                    (ctx, s, in) -> {
                      throw new IllegalStateException(
                          "records.hidden is disabled and must never run");
                    }))
        .register(
            Capability.named("records.query", QueryIn.class, QueryOut.class)
                .id("records.entry.query")
                .summary("Query records with a composite filter.")
                .handler((ctx, s, in) -> new QueryOut(in.filter().owner(), in.tags().size())))
        .register(
            Capability.named("errors.fail", FailIn.class, Ok.class)
                .summary("Fail in a chosen way.")
                .handler(
                    (ctx, s, in) -> {
                      String m = in.message().orElse("");
                      switch (in.mode()) {
                        case "plain" -> throw new Exception(m);
                        case "agent" -> throw new AgentError(m);
                        case "wrapped" -> throw new Exception("wrapper", new AgentError(m));
                        case "throw" -> throw new IllegalStateException(m);
                        default -> {
                          return new Ok(true);
                        }
                      }
                    }))
        .register(
            Capability.named("errors.score", ScoreIn.class, ScoreOut.class)
                .summary("Return a non-finite score.")
                .handler((ctx, s, in) -> new ScoreOut(Double.NaN)))
        .register(
            Capability.named("errors.big", BigIn.class, BigOut.class)
                .summary("Return an unsigned value above int64.")
                .handler((ctx, s, in) -> new BigOut(-1L)))
        .register(
            Capability.named("blob.get", BlobIn.class, BlobOut.class)
                .summary("Return a blob of x characters.")
                .handler(
                    (ctx, s, in) ->
                        new BlobOut("x".repeat((int) Math.max(0, Math.min(in.size(), 1 << 26))))))
        .register(
            Capability.named("sink.put", SinkIn.class, SinkOut.class)
                .summary("Accept data and return its length.")
                .handler((ctx, s, in) -> new SinkOut(in.data().length())))
        .register(
            Capability.named("units.set", UnitsIn.class, Ok.class)
                .summary("Set narrow numeric units.")
                .handler((ctx, s, in) -> new Ok(true)))
        .register(
            Capability.named("stats.sum", Echo.class, Echo.class)
                .summary("Echo a value.")
                .handler((ctx, s, in) -> new Echo(in.value())))
        .build();
  }

  private static String value(String[] args, int i, String flag) {
    if (i >= args.length) {
      usage(flag + " needs a value");
    }
    return args[i];
  }

  private static void usage(String problem) {
    System.err.println("records-server: " + problem);
    System.err.println(
        "usage: records-server [--authorizer allow-all|deny-forbidden|error|throw] "
            + "[--limit Name=value]... [--subject ID]");
    System.exit(2);
  }
}
