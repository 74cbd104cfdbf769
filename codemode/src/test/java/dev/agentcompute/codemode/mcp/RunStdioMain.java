package dev.agentcompute.codemode.mcp;

import dev.agentcompute.codemode.Capability;
import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.authz.Authorizer;
import dev.agentcompute.codemode.authz.Subject;

/**
 * A host as docs/library.md writes one, for {@link RunStdioTest}: its handler prints to System.out,
 * and main returns when {@link CodeModeMcp#runStdio} does.
 */
public final class RunStdioMain {

  private RunStdioMain() {}

  record In(String key) {}

  record Out(String key) {}

  public static void main(String[] args) throws Exception {
    Server server =
        CodeMode.builder(Options.builder().authorizer(Authorizer.allowAll()).build())
            .register(
                Capability.named("records.echo", In.class, Out.class)
                    .summary("Echo one key.")
                    .handler(
                        (c, s, in) -> {
                          System.out.println("a handler that prints " + in.key());
                          return new Out(in.key());
                        }))
            .build();
    CodeModeMcp.runStdio(
        server,
        InvocationResolver.staticSubject(new Subject("local")),
        new ServerInfo("echo-host", "3.1"));
    System.err.println("runStdio returned");
  }
}
