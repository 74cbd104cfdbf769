package dev.agentcompute.codemode.mcp;

import dev.agentcompute.codemode.Capability;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;

/** A one-capability stdio server for {@link CodeModeStdioTest}: serves until stdin closes. */
public final class StdioServerMain {

    private StdioServerMain() {
    }

    record In(String key) { }

    record Out(String key) { }

    public static void main(String[] args) throws Exception {
        CodeMode.serveWorkerAndExit();
        Server server = CodeMode.builder(Options.builder().policy(Policy.allowAll()).build())
                .register(Capability.named("records.lookup", In.class, Out.class).summary("Look up one record.")
                        .handler((c, s, in) -> new Out(in.key())))
                .build();
        CodeModeMcp.serveStdio(server, InvocationResolver.staticSubject(new Subject("local")));
        Thread.currentThread().join();
    }
}
