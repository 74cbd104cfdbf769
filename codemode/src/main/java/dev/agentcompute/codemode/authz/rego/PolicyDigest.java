package dev.agentcompute.codemode.authz.rego;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.SortedMap;

/**
 * A stable identity for a policy: SHA-256 over the decision and every file's name and content in
 * name order, each length-prefixed so no two different policies hash the same bytes. Shown as
 * {@code sha256:<hex>} (for /health and logs).
 */
final class PolicyDigest {
  private PolicyDigest() {}

  static String of(String decision, SortedMap<String, String> files) {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
    field(md, "decision");
    field(md, decision);
    for (var e : files.entrySet()) {
      field(md, e.getKey());
      field(md, e.getValue());
    }
    return "sha256:" + HexFormat.of().formatHex(md.digest());
  }

  private static void field(MessageDigest md, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    md.update(
        new byte[] {
          (byte) (b.length >>> 24),
          (byte) (b.length >>> 16),
          (byte) (b.length >>> 8),
          (byte) b.length
        });
    md.update(b);
  }
}
