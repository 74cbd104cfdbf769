package dev.agentcompute.codemode.tokens;

import dev.agentcompute.codemode.CodeModeException;
import dev.agentcompute.codemode.Failure;
import dev.agentcompute.codemode.protocol.JsonReader;
import dev.agentcompute.codemode.protocol.JsonWriter;
import dev.agentcompute.codemode.protocol.ProtocolException;
import dev.agentcompute.codemode.protocol.Values;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs and verifies {@code <kind>.<payload>.<mac>} tokens (docs/reference/policy.md#tokens): the
 * payload is the base64url (no padding) of compact sorted-key JSON, the MAC is HMAC-SHA256 over
 * {@code <kind>.<payload>} with a key derived per kind from one 32-byte secret. Every payload
 * carries {@code sc} (16 bytes of SHA-256 of the scope key, hex), {@code g} (catalogue generation),
 * {@code exp} (Unix seconds) and {@code n} (128-bit random nonce, hex).
 */
public final class TokenSigner {

  /** The secret's exact size. */
  public static final int SECRET_BYTES = 32;

  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder B64_DECODE = Base64.getUrlDecoder();
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Map<TokenKind, SecretKeySpec> keys = new EnumMap<>(TokenKind.class);

  public TokenSigner(byte[] secret) {
    if (secret == null || secret.length != SECRET_BYTES) {
      throw new IllegalArgumentException("a token secret is exactly 32 bytes");
    }
    for (TokenKind k : TokenKind.values()) {
      keys.put(
          k, new SecretKeySpec(hmac(secret, "codemode token key v1: " + k.label()), "HmacSHA256"));
    }
  }

  /** A fresh random secret. */
  public static byte[] randomSecret() {
    byte[] s = new byte[SECRET_BYTES];
    RANDOM.nextBytes(s);
    return s;
  }

  /** {@code sc}: the first 16 bytes of SHA-256 of the scope key, hex (never the key itself). */
  public static String scopeHash(String scopeKey) {
    return HexFormat.of().formatHex(sha256(scopeKey), 0, 16);
  }

  /** Hex SHA-256 of {@code text}: query and argument digests ({@code q}, {@code a}). */
  public static String digest(String text) {
    return HexFormat.of().formatHex(sha256(text));
  }

  /**
   * A token of {@code kind} carrying the common fields and {@code fields}; {@code exp} is {@code
   * now} plus the kind's lifetime.
   */
  public Signed sign(
      TokenKind kind, String scopeKey, String generation, Instant now, Map<String, Object> fields) {
    byte[] nonce = new byte[16];
    RANDOM.nextBytes(nonce);
    long exp = now.plus(kind.lifetime()).getEpochSecond();
    Map<String, Object> payload = new LinkedHashMap<>(fields);
    payload.put("sc", scopeHash(scopeKey));
    payload.put("g", generation);
    payload.put("exp", exp);
    payload.put("n", HexFormat.of().formatHex(nonce));
    String body;
    try {
      body =
          B64.encodeToString(
              JsonWriter.write(payload, JsonWriter.Spelling.TYPED)
                  .getBytes(StandardCharsets.UTF_8));
    } catch (Values.InvalidValue e) {
      throw new IllegalArgumentException("token fields must be JSON values", e);
    }
    String signed = kind.label() + "." + body;
    return new Signed(
        signed + "." + B64.encodeToString(mac(kind, signed)), Instant.ofEpochSecond(exp), payload);
  }

  /** A signed token, when it expires, and its payload. */
  public record Signed(String token, Instant expiresAt, Map<String, Object> payload) {}

  /** What a token's scope must equal: computed only once the MAC, expiry and kind passed. */
  @FunctionalInterface
  public interface Scope {
    String key() throws Exception;
  }

  /**
   * Verifies in the order of docs/reference/policy.md#tokens: MAC (constant time), {@code exp},
   * kind, {@code sc} against a freshly computed scope key, {@code g}; the caller then checks the
   * kind's own fields in the returned payload. A scope-key failure propagates (the request fails
   * closed).
   */
  Map<String, Object> verify(
      TokenKind expected, String token, Scope scope, String generation, Instant now)
      throws InvalidToken, Exception {
    if (token == null) {
      throw new InvalidToken();
    }
    String[] parts = token.split("\\.", -1);
    if (parts.length != 3) {
      throw new InvalidToken();
    }
    TokenKind kind = TokenKind.byLabel(parts[0]);
    if (kind == null) {
      throw new InvalidToken();
    }
    byte[] presented;
    byte[] json;
    try {
      presented = B64_DECODE.decode(parts[2]);
      json = B64_DECODE.decode(parts[1]);
    } catch (IllegalArgumentException e) {
      throw new InvalidToken();
    }
    if (!MessageDigest.isEqual(presented, mac(kind, parts[0] + "." + parts[1]))) {
      throw new InvalidToken();
    }
    Map<?, ?> payload;
    try {
      if (!(JsonReader.parse(json, 4) instanceof Map<?, ?> m)) {
        throw new InvalidToken();
      }
      payload = m;
    } catch (ProtocolException e) {
      throw new InvalidToken();
    }
    if (!(payload.get("exp") instanceof Long exp) || now.getEpochSecond() >= exp) {
      throw new InvalidToken();
    }
    if (kind != expected) {
      throw new InvalidToken();
    }
    if (!scopeHash(scope.key()).equals(payload.get("sc"))) {
      throw new InvalidToken();
    }
    if (!generation.equals(payload.get("g")) || !(payload.get("n") instanceof String)) {
      throw new InvalidToken();
    }
    Map<String, Object> out = new LinkedHashMap<>();
    payload.forEach((k, v) -> out.put((String) k, v));
    return out;
  }

  /**
   * {@link #verify} for a request: a failed verification is {@code invalid} (every cause the same
   * answer), a failing scope key is {@code authorization policy failure} (fail closed).
   */
  public Map<String, Object> verifyOr(
      Failure invalid,
      TokenKind expected,
      String token,
      Scope scope,
      String generation,
      Instant now)
      throws CodeModeException {
    try {
      return verify(expected, token, scope, generation, now);
    } catch (InvalidToken e) {
      throw CodeModeException.of(invalid);
    } catch (Throwable scopeKeyFailed) {
      throw CodeModeException.of(Failure.POLICY_FAILURE);
    }
  }

  private byte[] mac(TokenKind kind, String signed) {
    try {
      Mac m = Mac.getInstance("HmacSHA256");
      m.init(keys.get(kind));
      return m.doFinal(signed.getBytes(StandardCharsets.US_ASCII));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable", e);
    }
  }

  private static byte[] hmac(byte[] key, String label) {
    try {
      Mac m = Mac.getInstance("HmacSHA256");
      m.init(new SecretKeySpec(key, "HmacSHA256"));
      return m.doFinal(label.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable", e);
    }
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is unavailable", e);
    }
  }
}
