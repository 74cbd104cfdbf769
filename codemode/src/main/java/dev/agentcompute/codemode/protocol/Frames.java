package dev.agentcompute.codemode.protocol;

import java.util.Map;
import java.util.Set;

/** Encoding and strict decoding of {@link Frame}s. */
public final class Frames {

  public static final int MAX_FINAL_DETAIL_BYTES = 4096;
  public static final int MAX_ABORT_DETAIL_BYTES = 256;
  public static final long PROBE_CAP = 32;
  private static final Set<String> CODES =
      Set.of("invalid_program", "invalid_arguments", "resource_limit", "internal");

  private Frames() {}

  public static String encode(Frame f) throws Values.InvalidValue {
    StringBuilder b = new StringBuilder();
    // instanceof, not a pattern switch: each pattern switch makes a worker JVM generate a class
    // at start (SwitchBootstraps), which the AOT cache cannot hold (see WorkerPathTest).
    if (f instanceof Frame.Probe p) {
      b.append("{\"type\":\"probe\",\"version\":").append(p.version()).append('}');
    } else if (f instanceof Frame.ProbeAck p) {
      b.append("{\"type\":\"probe_ack\",\"version\":").append(p.version()).append('}');
    } else if (f instanceof Frame.Ready r) {
      b.append("{\"type\":\"ready\",\"version\":").append(r.version()).append('}');
    } else if (f instanceof Frame.Exec e) {
      b.append("{\"type\":\"exec\",\"version\":").append(e.version()).append(",\"source\":");
      GoJson.writeString(b, e.source());
      writeLimits(b, e.limits());
      b.append(",\"manifest\":");
      Manifest.write(b, e.manifest());
      if (e.keepAlive()) {
        b.append(",\"keep_alive\":true");
      }
      if (e.explain()) {
        b.append(",\"explain\":true");
      }
      b.append('}');
    } else if (f instanceof Frame.NativeCall c) {
      b.append("{\"type\":\"native_call\",\"capability_id\":");
      GoJson.writeString(b, c.capabilityId());
      b.append(",\"arguments\":");
      Values.write(b, c.arguments());
      b.append('}');
    } else if (f instanceof Frame.NativeResult r) {
      b.append("{\"type\":\"native_result\",\"result\":");
      Values.write(b, r.result());
      b.append('}');
    } else if (f instanceof Frame.NativeAbort a) {
      b.append("{\"type\":\"native_abort\"");
      if (legalAbortDetail(a.detail())) {
        b.append(",\"detail\":");
        GoJson.writeString(b, a.detail());
      }
      b.append('}');
    } else if (f instanceof Frame.Final fin) {
      b.append("{\"type\":\"final\",\"result\":");
      Values.write(b, fin.result());
      b.append('}');
    } else if (f instanceof Frame.FinalError fe) {
      b.append("{\"type\":\"final_error\",\"code\":");
      GoJson.writeString(b, fe.code());
      if (legalFinalDetail(fe.code(), fe.detail())) {
        b.append(",\"detail\":");
        GoJson.writeString(b, fe.detail());
      }
      if (legalExplanation(fe.explanation())) {
        b.append(",\"explanation\":");
        GoJson.writeString(b, fe.explanation());
      }
      b.append('}');
    } else {
      throw new IllegalArgumentException("unknown frame " + f);
    }
    return b.toString();
  }

  private static void writeLimits(StringBuilder b, Frame.ExecLimits l) {
    b.append(",\"limits\":{\"max_source_bytes\":")
        .append(l.maxSourceBytes())
        .append(",\"max_execution_steps\":")
        .append(l.maxExecutionSteps())
        .append(",\"max_native_calls\":")
        .append(l.maxNativeCalls())
        .append(",\"max_value_depth\":")
        .append(l.maxValueDepth())
        .append(",\"max_value_bytes\":")
        .append(l.maxValueBytes())
        .append('}');
  }

  static boolean legalAbortDetail(String d) {
    if (d == null
        || d.isEmpty()
        || d.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_ABORT_DETAIL_BYTES) {
      return false;
    }
    return d.chars().noneMatch(c -> c < 0x20 || c == 0x7F);
  }

  static boolean legalFinalDetail(String code, String d) {
    return d != null
        && !d.isEmpty()
        && (code.equals("invalid_program") || code.equals("invalid_arguments"))
        && d.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= MAX_FINAL_DETAIL_BYTES;
  }

  static boolean legalExplanation(String d) {
    return d != null
        && !d.isEmpty()
        && d.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= MAX_FINAL_DETAIL_BYTES;
  }

  /**
   * Decodes one frame payload. {@code maxValueDepth} bounds value nesting (a deeper value is a
   * protocol violation: a legal peer never sends one).
   */
  public static Frame decode(byte[] payload, long maxValueDepth) throws ProtocolException {
    int nesting = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(16, maxValueDepth + 8));
    Map<String, Object> m =
        object(JsonReader.parse(payload, nesting), "frame", null, Set.of("type"));
    String type = string(m, "type");
    switch (type) {
      case "probe" -> {
        only(m, Set.of("type", "version"), Set.of("version"));
        return new Frame.Probe(integer(m, "version"));
      }
      case "probe_ack" -> {
        only(m, Set.of("type", "version"), Set.of("version"));
        return new Frame.ProbeAck(integer(m, "version"));
      }
      case "ready" -> {
        only(m, Set.of("type", "version"), Set.of("version"));
        return new Frame.Ready(integer(m, "version"));
      }
      case "exec" -> {
        only(
            m,
            Set.of("type", "version", "source", "limits", "manifest", "keep_alive", "explain"),
            Set.of("version", "source", "limits", "manifest"));
        Map<String, Object> l =
            object(
                m.get("limits"),
                "limits",
                Set.of(
                    "max_source_bytes",
                    "max_execution_steps",
                    "max_native_calls",
                    "max_value_depth",
                    "max_value_bytes"),
                Set.of(
                    "max_source_bytes",
                    "max_execution_steps",
                    "max_native_calls",
                    "max_value_depth",
                    "max_value_bytes"));
        Frame.ExecLimits limits =
            new Frame.ExecLimits(
                integer(l, "max_source_bytes"),
                integer(l, "max_execution_steps"),
                integer(l, "max_native_calls"),
                integer(l, "max_value_depth"),
                integer(l, "max_value_bytes"));
        boolean keep = false;
        if (m.containsKey("keep_alive")) {
          if (!(m.get("keep_alive") instanceof Boolean k)) {
            throw new ProtocolException("keep_alive must be a boolean");
          }
          keep = k;
        }
        boolean explain = false;
        if (m.containsKey("explain")) {
          if (!(m.get("explain") instanceof Boolean x)) {
            throw new ProtocolException("explain must be a boolean");
          }
          explain = x;
        }
        return new Frame.Exec(
            integer(m, "version"),
            string(m, "source"),
            limits,
            Manifest.read(m.get("manifest")),
            keep,
            explain);
      }
      case "native_call" -> {
        only(m, Set.of("type", "capability_id", "arguments"), Set.of("capability_id", "arguments"));
        String id = string(m, "capability_id");
        if (id.isEmpty()) {
          throw new ProtocolException("capability_id must not be empty");
        }
        Map<String, Object> args = object(m.get("arguments"), "arguments", null, Set.of());
        return new Frame.NativeCall(id, args);
      }
      case "native_result" -> {
        only(m, Set.of("type", "result"), Set.of("result"));
        return new Frame.NativeResult(m.get("result"));
      }
      case "native_abort" -> {
        only(m, Set.of("type", "detail"), Set.of());
        String detail = null;
        if (m.containsKey("detail")) {
          if (!(m.get("detail") instanceof String d) || !legalAbortDetail(d)) {
            throw new ProtocolException("illegal native_abort detail");
          }
          detail = d;
        }
        return new Frame.NativeAbort(detail);
      }
      case "final" -> {
        only(m, Set.of("type", "result"), Set.of("result"));
        return new Frame.Final(m.get("result"));
      }
      case "final_error" -> {
        only(m, Set.of("type", "code", "detail", "explanation"), Set.of("code"));
        String code = string(m, "code");
        if (!CODES.contains(code)) {
          throw new ProtocolException("unknown final_error code");
        }
        String detail = null;
        if (m.containsKey("detail")) {
          if (!(m.get("detail") instanceof String d) || !legalFinalDetail(code, d)) {
            throw new ProtocolException("illegal final_error detail");
          }
          detail = d;
        }
        String explanation = null;
        if (m.containsKey("explanation")) {
          if (!(m.get("explanation") instanceof String x) || !legalExplanation(x)) {
            throw new ProtocolException("illegal final_error explanation");
          }
          explanation = x;
        }
        return new Frame.FinalError(code, detail, explanation);
      }
      default -> throw new ProtocolException("unknown frame type");
    }
  }

  private static void only(Map<String, Object> m, Set<String> allowed, Set<String> required)
      throws ProtocolException {
    object(m, "frame", allowed, required);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> object(
      Object o, String what, Set<String> allowed, Set<String> required) throws ProtocolException {
    if (!(o instanceof Map<?, ?> raw)) {
      throw new ProtocolException(what + " must be an object");
    }
    Map<String, Object> m = (Map<String, Object>) raw;
    if (allowed != null) {
      for (String k : m.keySet()) {
        if (!allowed.contains(k)) {
          throw new ProtocolException(what + " has unknown field " + k);
        }
      }
    }
    for (String k : required) {
      if (!m.containsKey(k)) {
        throw new ProtocolException(what + " misses field " + k);
      }
    }
    return m;
  }

  static String string(Map<String, Object> m, String k) throws ProtocolException {
    if (!(m.get(k) instanceof String s)) {
      throw new ProtocolException(k + " must be a string");
    }
    return s;
  }

  static long integer(Map<String, Object> m, String k) throws ProtocolException {
    if (!(m.get(k) instanceof Long l)) {
      throw new ProtocolException(k + " must be an integer");
    }
    return l;
  }
}
