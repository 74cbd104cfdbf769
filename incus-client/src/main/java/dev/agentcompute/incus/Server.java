package dev.agentcompute.incus;

import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/** Server-wide calls: {@code /1.0} and the trust store ({@code /1.0/certificates}). */
public final class Server {

  private final Rest rest;

  Server(Rest rest) {
    this.rest = rest;
  }

  /** {@code GET /1.0}. */
  public ServerInfo info() {
    return rest.get(Scope.DEFAULT, "/1.0", ServerInfo.class);
  }

  /**
   * Sets server config keys ({@code PATCH /1.0}); other keys are left alone. An empty value unsets
   * the key (e.g. {@code core.https_address=""}).
   */
  public void updateConfig(Map<String, String> config) {
    rest.call(Scope.DEFAULT, "PATCH", "/1.0", Map.of("config", config), null);
  }

  /**
   * Adds a client certificate to the trust store ({@code POST /1.0/certificates}, type client,
   * unrestricted). Returns its fingerprint, the name to {@link #untrust} it by.
   */
  public String trust(String name, X509Certificate certificate) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", name);
    body.put("type", "client");
    body.put("restricted", false);
    body.put("certificate", Base64.getEncoder().encodeToString(Pem.der(certificate)));
    rest.call(Scope.DEFAULT, "POST", "/1.0/certificates", body, null);
    return Pem.fingerprint(certificate);
  }

  /** Removes a certificate from the trust store by its SHA-256 fingerprint. */
  public void untrust(String fingerprint) {
    rest.call(
        Scope.DEFAULT, "DELETE", "/1.0/certificates/" + Scope.segment(fingerprint), null, null);
  }

  /** The most of {@code GET /1.0/metrics} kept: a project's text is a few KiB per instance. */
  static final long METRICS_MAX_BYTES = 8L << 20;

  /**
   * The OpenMetrics text of one project's instances ({@code GET /1.0/metrics?project=}), e.g.
   * {@code incus_memory_OOM_kills_total}: what the host knows of an instance's cgroups when the
   * guest cannot read them.
   */
  public String metrics(String project) {
    Transport.Response response =
        rest.rawBounded(
            new Scope(project, null), "/1.0/metrics", rest.operationTimeout(), METRICS_MAX_BYTES);
    return new String(response.body(), java.nio.charset.StandardCharsets.UTF_8);
  }
}
