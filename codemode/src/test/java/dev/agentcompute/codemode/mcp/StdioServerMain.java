package dev.agentcompute.codemode.mcp;

import dev.agentcompute.codemode.Capability;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.ResourceBody;
import dev.agentcompute.codemode.ResourceDescription;
import dev.agentcompute.codemode.Resources;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.ResourcePolicy;
import dev.agentcompute.codemode.authz.Subject;

/**
 * A one-capability, one-resource stdio server for {@link CodeModeStdioTest}: serves until stdin
 * closes.
 */
public final class StdioServerMain {

  private StdioServerMain() {}

  record In(String key) {}

  record Out(String key) {}

  public static void main(String[] args) throws Exception {
    CodeMode.serveWorkerAndExit();
    Server server =
        CodeMode.builder(Options.builder().policy(Policy.allowRegistered()).build())
            .register(
                Capability.named("records.lookup", In.class, Out.class)
                    .summary("Look up one record.")
                    .handler((c, s, in) -> new Out(in.key())))
            .build();
    ResourceDescription status =
        ResourceDescription.resource("records://status", "status").withMimeType("application/json");
    Resources resources =
        Resources.builder(ResourcePolicy.allowRegistered())
            .resource(status, (c, s, item) -> ResourceBody.text("{\"state\":\"ok\"}"))
            .build();
    CodeModeMcp.serveStdio(
        server, resources, InvocationResolver.staticSubject(new Subject("local")));
    Thread.currentThread().join();
  }
}
