package dev.agentcompute.server.config;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256, which every JDK provides. */
public final class Digests {
  private Digests() {}

  public static byte[] sha256(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK lacks SHA-256", e);
    }
  }

  static String sha256Hex(byte[] data) {
    return HexFormat.of().formatHex(sha256(data));
  }
}
