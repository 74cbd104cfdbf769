package dev.agentcompute.codemode.execution;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The test hook run in a worker's place, with the worker's exact command line (only the main class
 * differs): it tries what a worker that escaped the interpreter would try and prints one line per
 * attempt, {@code <attempt> ok} or {@code <attempt> refused <why>}.
 */
public final class JailProbeMain {
  private JailProbeMain() {}

  public static void main(String[] args) {
    for (String a : args) {
      String[] p = a.split("=", 2);
      try {
        switch (p[0]) {
          case "read" -> {
            Path path = Path.of(p[1]);
            if (Files.isDirectory(path)) {
              try (var list = Files.list(path)) {
                list.count();
              }
            } else {
              Files.readAllBytes(path);
            }
          }
          case "unix" -> {
            try (SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(p[1]))) {
              c.isConnected();
            }
          }
          case "tcp" -> {
            String[] hp = p[1].split(":");
            try (Socket s = new Socket()) {
              s.connect(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])), 2000);
            }
          }
          case "groups" -> {
            String status = Files.readString(Path.of("/proc/self/status"));
            for (String line : status.split("\n")) {
              if (line.startsWith("Groups:") || line.startsWith("Uid:")) {
                System.out.println(a + " " + line.replace('\t', ' ').strip());
              }
            }
            continue;
          }
          default -> throw new IllegalArgumentException("unknown attempt");
        }
        System.out.println(a + " ok");
      } catch (Exception e) {
        System.out.println(a + " refused " + e.getClass().getSimpleName());
      }
    }
  }
}
