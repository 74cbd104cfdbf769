package dev.agentcompute.lume;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;

/** SSH key pairs for the doubles: ECDSA P-256 (the JDK has it, no extra provider needed). */
public final class TestKeys {
  private TestKeys() {}

  public static KeyPair generate() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp256r1"));
      return g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Writes the private key as an unencrypted OpenSSH key file (mode 600). */
  public static Path writePrivate(KeyPair key, Path file) {
    try (OutputStream out = Files.newOutputStream(file)) {
      OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(key, "agentcompute-test", null, out);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
    try {
      Files.setPosixFilePermissions(
          file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  /** {@code <type> <base64>} of the public key, as authorized_keys and known_hosts list it. */
  public static String publicLine(KeyPair key) {
    return PublicKeyEntry.toString(key.getPublic());
  }
}
