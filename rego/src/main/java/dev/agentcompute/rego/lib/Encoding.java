package dev.agentcompute.rego.lib;

import dev.agentcompute.rego.value.Json;
import dev.agentcompute.rego.value.RegoBoolean;
import dev.agentcompute.rego.value.RegoString;
import dev.agentcompute.rego.value.RegoValue;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** json.*, yaml.*, base64.*, base64url.* and hex.* encodings. */
final class Encoding {
  private Encoding() {}

  /** Deepest document json.unmarshal and yaml.unmarshal accept. */
  static final int MAX_DEPTH = 1000;

  static void register(Registry r) {
    r.add("json.marshal", 1, (c, a) -> charged(c, RegoString.of(Json.write(a[0]))));
    r.add("json.unmarshal", 1, Encoding::jsonUnmarshal);
    r.add(
        "json.is_valid",
        1,
        (c, a) -> RegoBoolean.of(a[0] instanceof RegoString s && jsonValid(s.value())));
    r.add("yaml.marshal", 1, (c, a) -> charged(c, RegoString.of(YamlWriter.write(a[0]))));
    r.add("yaml.unmarshal", 1, Encoding::yamlUnmarshal);
    r.add(
        "yaml.is_valid",
        1,
        (c, a) -> RegoBoolean.of(a[0] instanceof RegoString s && yamlValid(s.value())));
    r.add(
        "base64.encode", 1, (c, a) -> RegoString.of(Base64.getEncoder().encodeToString(bytes(a))));
    r.add("base64.decode", 1, (c, a) -> decode(Base64.getDecoder(), Args.string(a, 0)));
    r.add("base64.is_valid", 1, (c, a) -> RegoBoolean.of(base64Valid(Args.string(a, 0))));
    r.add(
        "base64url.encode",
        1,
        (c, a) -> RegoString.of(Base64.getUrlEncoder().encodeToString(bytes(a))));
    r.add(
        "base64url.encode_no_pad",
        1,
        (c, a) -> RegoString.of(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes(a))));
    r.add("base64url.decode", 1, (c, a) -> decode(Base64.getUrlDecoder(), Args.string(a, 0)));
    r.add("hex.encode", 1, (c, a) -> RegoString.of(java.util.HexFormat.of().formatHex(bytes(a))));
    r.add("hex.decode", 1, Encoding::hexDecode);
  }

  private static RegoValue charged(BuiltinContext c, RegoString s) {
    c.charge(s.value().length() / 64);
    return s;
  }

  private static byte[] bytes(RegoValue[] a) throws BuiltinError {
    return Args.string(a, 0).getBytes(StandardCharsets.UTF_8);
  }

  private static RegoValue jsonUnmarshal(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    String s = Args.string(a, 0);
    c.charge(s.length() / 64);
    try {
      return Json.parse(s, MAX_DEPTH);
    } catch (Json.ParseError e) {
      throw BuiltinError.of(e.getMessage());
    }
  }

  private static boolean jsonValid(String s) {
    try {
      Json.parse(s, MAX_DEPTH);
      return true;
    } catch (Json.ParseError e) {
      return false;
    }
  }

  private static RegoValue yamlUnmarshal(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    String s = Args.string(a, 0);
    c.charge(s.length() / 64);
    try {
      return YamlReader.read(s);
    } catch (YamlReader.Error e) {
      throw BuiltinError.of(e.getMessage());
    }
  }

  private static boolean yamlValid(String s) {
    try {
      YamlReader.read(s);
      return true;
    } catch (YamlReader.Error e) {
      return false;
    }
  }

  private static RegoValue decode(Base64.Decoder d, String s) throws BuiltinError {
    try {
      return RegoString.of(new String(d.decode(s), StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw BuiltinError.of("illegal base64 data at input byte " + firstBad(s));
    }
  }

  private static int firstBad(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(Character.isLetterOrDigit(c)
          || c == '+'
          || c == '/'
          || c == '='
          || c == '-'
          || c == '_')) {
        return i;
      }
    }
    return Math.max(0, s.length() - 1);
  }

  private static boolean base64Valid(String s) {
    try {
      Base64.getDecoder().decode(s);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static RegoValue hexDecode(BuiltinContext c, RegoValue[] a) throws BuiltinError {
    String s = Args.string(a, 0);
    try {
      return RegoString.of(
          new String(java.util.HexFormat.of().parseHex(s), StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw BuiltinError.of("encoding/hex: invalid byte");
    }
  }
}
