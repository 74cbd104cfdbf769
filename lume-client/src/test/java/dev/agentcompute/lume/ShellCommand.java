package dev.agentcompute.lume;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Consumer;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.Signal;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;

/**
 * An SSH exec request run by the real {@code /bin/sh} (as OpenSSH's sshd runs it through the login
 * shell) after {@link PathAliases} put the double's shims where macOS keeps its tools, with {@code
 * HOME} set to the double's home and {@code PATH} limited to the system; a {@code signal KILL}
 * request kills the process.
 */
final class ShellCommand implements Command {
  private final String command;
  private final Path home;
  private final Consumer<String> record;
  private final PathAliases aliases;
  private InputStream in;
  private OutputStream out;
  private OutputStream err;
  private ExitCallback exit;
  private volatile Process process;

  ShellCommand(String command, Path home, Consumer<String> record, PathAliases aliases) {
    this.command = command;
    this.home = home;
    this.record = record;
    this.aliases = aliases;
  }

  @Override
  public void setInputStream(InputStream in) {
    this.in = in;
  }

  @Override
  public void setOutputStream(OutputStream out) {
    this.out = out;
  }

  @Override
  public void setErrorStream(OutputStream err) {
    this.err = err;
  }

  @Override
  public void setExitCallback(ExitCallback callback) {
    this.exit = callback;
  }

  @Override
  public void start(ChannelSession channel, Environment env) throws IOException {
    record.accept(command);
    ProcessBuilder pb =
        new ProcessBuilder(List.of("/bin/sh", "-c", aliases.apply(command)))
            .directory(home.toFile());
    pb.environment().clear();
    pb.environment().put("HOME", home.toString());
    pb.environment().put("PATH", "/usr/bin:/bin");
    pb.environment().put("LC_ALL", "C");
    Process p = pb.start();
    process = p;
    env.addSignalListener(
        (ch, signal) -> {
          record.accept("signal " + signal.name());
          killTree(p);
        },
        EnumSet.of(Signal.KILL));
    Thread.ofVirtual().start(() -> copy(in, p.getOutputStream(), true));
    Thread errPump = Thread.ofVirtual().start(() -> copy(p.getErrorStream(), err, false));
    Thread.ofVirtual()
        .start(
            () -> {
              copy(p.getInputStream(), out, false);
              try {
                errPump.join();
                int code = p.waitFor();
                out.flush();
                err.flush();
                exit.onExit(code);
              } catch (InterruptedException | IOException e) {
                exit.onExit(255);
              }
            });
  }

  private static void copy(InputStream from, OutputStream to, boolean closeTo) {
    byte[] buf = new byte[16 * 1024];
    try {
      for (int n = from.read(buf); n >= 0; n = from.read(buf)) {
        to.write(buf, 0, n);
        to.flush();
      }
    } catch (IOException e) {
      // the other side went away
    } finally {
      if (closeTo) {
        try {
          to.close();
        } catch (IOException ignored) {
          // nothing to do
        }
      }
    }
  }

  /**
   * Kills the shell and what it started: the command line arrives wrapped in {@code /bin/sh -c}, so
   * the process the client means is the shell's child.
   */
  private static void killTree(Process p) {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
  }

  @Override
  public void destroy(ChannelSession channel) {
    Process p = process;
    if (p != null && p.isAlive()) {
      killTree(p);
    }
  }
}
