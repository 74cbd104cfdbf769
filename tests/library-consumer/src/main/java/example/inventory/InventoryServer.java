package example.inventory;

import dev.agentcompute.codemode.AgentError;
import dev.agentcompute.codemode.Capability;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.AccessDenied;
import dev.agentcompute.codemode.authz.Authorizer;
import dev.agentcompute.codemode.authz.Subject;
import dev.agentcompute.codemode.mcp.CodeModeMcp;
import dev.agentcompute.codemode.mcp.InvocationResolver;
import dev.agentcompute.codemode.mcp.ServerInfo;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** An inventory over an in-memory map, served to agents over stdio. */
public final class InventoryServer {

  record LookupIn(String sku) {}

  record LookupOut(String sku, long count) {}

  record AdjustIn(String sku, long delta) {}

  record AdjustOut(String sku, long count) {}

  public static void main(String[] args) throws Exception {
    String subject = args.length > 0 ? args[0] : "clerk";
    Map<String, Long> stock = new ConcurrentHashMap<>(Map.of("apple", 5L, "pear", 2L));

    Capability<LookupIn, LookupOut> lookup =
        Capability.named("inventory.lookup", LookupIn.class, LookupOut.class)
            .summary("Look up how many of one item are in stock.")
            .searchTerms("stock", "count", "sku")
            .handler(
                (ctx, who, in) -> {
                  Long count = stock.get(in.sku());
                  if (count == null) {
                    throw new AgentError("no item with sku " + in.sku());
                  }
                  return new LookupOut(in.sku(), count);
                });

    Capability<AdjustIn, AdjustOut> adjust =
        Capability.named("inventory.adjust", AdjustIn.class, AdjustOut.class)
            .summary("Add to or take from the stock of one item.")
            .searchTerms("stock", "change", "sku")
            .handler(
                (ctx, who, in) ->
                    new AdjustOut(in.sku(), stock.merge(in.sku(), in.delta(), Long::sum)));

    // The id of a capability is its name unless .id(...) says otherwise.
    Authorizer authorizer =
        (ctx, request) -> {
          if (request.operation().equals("inventory.adjust")
              && request.subject().id().equals("viewer")) {
            throw new AccessDenied();
          }
        };

    Server server =
        CodeMode.builder(Options.builder().authorizer(authorizer).build())
            .register(lookup)
            .register(adjust)
            .build();
    System.err.println("inventory-server: serving as " + subject);
    CodeModeMcp.runStdio(
        server,
        InvocationResolver.staticSubject(new Subject(subject)),
        new ServerInfo("inventory", "1.0.0"));
  }
}
