package dev.agentcompute.server.auth;

import dev.agentcompute.server.config.Digests;
import dev.agentcompute.server.errors.CredentialException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.json.JsonMapper;

/**
 * Parses the bearer credential file (docs/configuration.md#bearer-credential-file): one JSON object
 * mapping identity names to tokens, read as a token stream. Every error is one of the fixed texts
 * below; none of them ever contains a token or a fragment of the file.
 */
public final class BearerTokensFile {
  static final String NOT_AN_OBJECT =
      "bearer credential file must be a JSON object of identity names to tokens";
  static final String INVALID_ENTRY = "invalid bearer credential entry";
  static final String BAD_STRING =
      "bearer identity names and tokens must be nonempty strings"
          + " without whitespace or control characters";
  static final String DUPLICATE = "bearer credential file contains a duplicate identity or token";
  static final String EMPTY = "bearer credential file must contain at least one identity";
  static final String TRAILING = "unexpected data after bearer credential object";

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private BearerTokensFile() {}

  public static BearerTokens load(Path file) {
    byte[] content;
    try {
      content = Files.readAllBytes(file);
    } catch (IOException e) {
      // The exception names the path and the reason (no such file, permission), never content.
      throw new CredentialException("open bearer credential file: " + file + ": " + reason(e));
    }
    return parse(content);
  }

  public static BearerTokens parse(byte[] content) {
    if (!validUtf8(content)) {
      throw new CredentialException(INVALID_ENTRY);
    }
    List<BearerTokens.Entry> entries = new ArrayList<>();
    Set<String> names = new HashSet<>();
    Set<ByteBuffer> digests = new HashSet<>();
    try (JsonParser parser = JSON.createParser(content)) {
      if (next(parser, NOT_AN_OBJECT) != JsonToken.START_OBJECT) {
        throw new CredentialException(NOT_AN_OBJECT);
      }
      for (JsonToken token = next(parser, INVALID_ENTRY);
          token != JsonToken.END_OBJECT;
          token = next(parser, INVALID_ENTRY)) {
        if (token != JsonToken.PROPERTY_NAME) {
          throw new CredentialException(INVALID_ENTRY);
        }
        String name = parser.currentName();
        if (next(parser, INVALID_ENTRY) != JsonToken.VALUE_STRING) {
          throw new CredentialException(INVALID_ENTRY);
        }
        String token0 = parser.getString();
        if (!acceptable(name) || !acceptable(token0)) {
          throw new CredentialException(BAD_STRING);
        }
        byte[] digest = Digests.sha256(token0.getBytes(StandardCharsets.UTF_8));
        if (!names.add(name) || !digests.add(ByteBuffer.wrap(digest))) {
          throw new CredentialException(DUPLICATE);
        }
        entries.add(new BearerTokens.Entry(name, digest));
      }
      if (entries.isEmpty()) {
        throw new CredentialException(EMPTY);
      }
      if (next(parser, TRAILING) != null) {
        throw new CredentialException(TRAILING);
      }
    }
    return new BearerTokens(entries);
  }

  /**
   * The next token; a syntax error becomes {@code failure} (never Jackson's text, which quotes
   * input).
   */
  private static JsonToken next(JsonParser parser, String failure) {
    try {
      return parser.nextToken();
    } catch (JacksonException e) {
      throw new CredentialException(failure);
    }
  }

  /** Non-empty, and no whitespace or control character anywhere (Unicode definitions). */
  static boolean acceptable(String s) {
    if (s.isEmpty()) {
      return false;
    }
    // Go's unicode.IsSpace is Zs/Zl/Zp plus C0 spacing controls; IsControl is Cc. Together
    // they are exactly isSpaceChar (Z*) or isISOControl (Cc, which holds \t \n \v \f \r NEL).
    return s.codePoints().noneMatch(cp -> Character.isSpaceChar(cp) || Character.isISOControl(cp));
  }

  private static boolean validUtf8(byte[] content) {
    try {
      StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(content));
      return true;
    } catch (java.nio.charset.CharacterCodingException e) {
      return false;
    }
  }

  private static String reason(IOException e) {
    if (e instanceof java.nio.file.NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (e.getMessage() != null && e.getMessage().contains("Is a directory")) {
      return "is a directory";
    }
    return e.getClass().getSimpleName();
  }
}
