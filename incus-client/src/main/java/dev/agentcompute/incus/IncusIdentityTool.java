package dev.agentcompute.incus;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Command line: creates a client identity in a directory (client.crt, client.key) unless one is
 * already there, and prints its certificate on stdout, ready for {@code incus config trust
 * add-certificate -}. The fingerprint goes to stderr.
 *
 * <pre>java -cp ... dev.agentcompute.incus.IncusIdentityTool DIR [COMMON_NAME]</pre>
 */
public final class IncusIdentityTool {

  private IncusIdentityTool() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 1 || args.length > 2) {
      System.err.println("usage: IncusIdentityTool DIR [COMMON_NAME]");
      System.exit(2);
    }
    Path dir = Path.of(args[0]);
    Path certificate = dir.resolve("client.crt");
    Path key = dir.resolve("client.key");
    IncusIdentity identity;
    if (Files.exists(certificate) && Files.exists(key)) {
      identity = IncusIdentity.fromPem(certificate.toString(), key.toString());
      System.err.println("using the existing identity in " + dir);
    } else {
      Files.createDirectories(dir);
      identity =
          IncusIdentity.generate(args.length == 2 ? args[1] : IncusIdentity.defaultCommonName());
      identity.write(certificate, key);
      System.err.println("wrote " + certificate + " and " + key);
    }
    System.err.println("fingerprint (sha256): " + identity.fingerprint());
    System.out.print(identity.certificatePem());
  }
}
