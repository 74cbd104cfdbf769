package dev.agentcompute.codemode.execution;

import dev.agentcompute.codemode.CodeMode;
import dev.agentcompute.codemode.Context;
import dev.agentcompute.codemode.Options;
import dev.agentcompute.codemode.Server;
import dev.agentcompute.codemode.WorkerIsolation;
import dev.agentcompute.codemode.authz.Policy;
import dev.agentcompute.codemode.authz.Subject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A server with jailed workers, for {@link WorkerJailLifetimeTest}: runs one execution (so jails
 * exist, the pool's pre-started ones included), starts a stuck jailed process, prints {@code
 * ready}, and waits to be killed.
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
    // A stuck worker: a jail that never reads its stdin, so only --die-with-parent ends it when the
    // server dies (an idle worker also exits when its stdin ends). Started, as a pool refill starts
    // workers, from a thread that ends at once.
    String sleep = Files.exists(Path.of("/usr/bin/sleep")) ? "/usr/bin/sleep" : "/bin/sleep";
    Thread.ofPlatform()
        .start(
            () -> {
              try {
                WorkerCommand.start(
                    WorkerJail.bubblewrap(
                        WorkerJail.bwrap().orElseThrow(), List.of(sleep, "600"), null),
                    false);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            })
        .join();
    // Give the pool's refill (started a moment after a worker is taken) time to start its jails.
    Thread.sleep(3_000);
    System.out.println("ready " + answer);
    System.out.flush();
    Thread.sleep(120_000);
  }
}
