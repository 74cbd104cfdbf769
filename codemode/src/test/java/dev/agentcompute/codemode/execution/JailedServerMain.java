package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.WorkerIsolation;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;

/**
 * A server with jailed workers, for {@link WorkerJailLifetimeTest}: runs one execution (so jails
 * exist, the pool's pre-started ones included), prints {@code ready}, and waits to be killed.
 */
public final class JailedServerMain {
  private JailedServerMain() {}

  public static void main(String[] args) throws Exception {
    Server s =
        CodeMode.builder(
                Options.builder()
                    .policy(Policy.allowRegistered())
                    .workerIsolation(WorkerIsolation.BUBBLEWRAP)
                    .build())
            .build();
    Object answer =
        s.execute(Context.background(), new Subject("a"), "def main():\n    return 42\n");
    // Give the pool's refill (started a moment after a worker is taken) time to start its jails.
    Thread.sleep(3_000);
    System.out.println("ready " + answer);
    System.out.flush();
    Thread.sleep(120_000);
  }
}
