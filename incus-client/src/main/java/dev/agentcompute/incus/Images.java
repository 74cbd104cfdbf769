package dev.agentcompute.incus;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.FileEntity;
import tools.jackson.core.type.TypeReference;

/** {@code /1.0/images} and {@code /1.0/images/aliases} in the client's project. */
public final class Images {

  private final Rest rest;
  private final Scope scope;

  Images(Rest rest, Scope scope) {
    this.rest = rest;
    this.scope = scope;
  }

  public Image get(String fingerprint) {
    return rest.get(scope, "/1.0/images/" + Scope.segment(fingerprint), Image.class);
  }

  public List<Image> list() {
    return rest.get(scope, "/1.0/images?recursion=1", new TypeReference<List<Image>>() {});
  }

  /** Looks an alias up; {@code type} (container / virtual-machine) may be null for any. */
  public ImageAlias alias(String name, String type) {
    String query = type == null ? "" : "?type=" + Scope.encode(type);
    return rest.get(scope, "/1.0/images/aliases/" + Scope.segment(name) + query, ImageAlias.class);
  }

  public void createAlias(String name, String fingerprint, String description) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", name);
    body.put("target", fingerprint);
    body.put("description", description == null ? "" : description);
    rest.call(scope, "POST", "/1.0/images/aliases", body, null);
  }

  public void deleteAlias(String name) {
    rest.call(scope, "DELETE", "/1.0/images/aliases/" + Scope.segment(name), null, null);
  }

  /**
   * Creates a one-time secret that lets another server (or project) pull this private image. The
   * secret's operation stays pending until used or expired, so it is not waited for; use {@link
   * #secretOperation} to be able to revoke an unused secret.
   */
  public String secret(String fingerprint) {
    return secretOf(secretOperation(fingerprint), fingerprint);
  }

  /** The pending token operation behind a secret; {@code cancel()} revokes the secret. */
  public PendingOperation secretOperation(String fingerprint) {
    PendingOperation operation =
        rest.async(
            scope, "POST", "/1.0/images/" + Scope.segment(fingerprint) + "/secret", Map.of(), null);
    secretOf(operation, fingerprint);
    return operation;
  }

  /** The secret carried by a {@link #secretOperation}. */
  public static String secretOf(PendingOperation operation, String fingerprint) {
    if (!(operation.started().metadata().get("secret") instanceof String secret)) {
      throw new IncusException.Failed(
          0, "image secret for " + fingerprint + ": server returned no secret", null);
    }
    return secret;
  }

  /** Pulls an image into this project (see {@link ImagePull}); returns its fingerprint. */
  public String pull(ImagePull pull) {
    Map<String, Object> source = new LinkedHashMap<>();
    source.put("type", "image");
    source.put("mode", "pull");
    source.put("server", pull.server());
    source.put("protocol", "incus");
    source.put("certificate", pull.certificatePem());
    source.put("secret", pull.secret());
    source.put("fingerprint", pull.fingerprint());
    source.put("project", pull.sourceProject());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("source", source);
    body.put("profiles", List.of());
    body.put("aliases", aliasObjects(pull.aliases()));
    Operation done = rest.async(scope, "POST", "/1.0/images", body, null).await();
    return done.metadata().get("fingerprint") instanceof String fp ? fp : pull.fingerprint();
  }

  /**
   * Imports a unified image tarball (metadata.yaml + rootfs/ in one archive) from a file; returns
   * the new image's fingerprint. {@code aliases} are created afterwards.
   */
  public String importTarball(Path tarball, Map<String, String> properties, List<String> aliases) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("X-Incus-Public", "0");
    headers.put("X-Incus-Filename", tarball.getFileName().toString());
    if (properties != null && !properties.isEmpty()) {
      headers.put(
          "X-Incus-Properties",
          properties.entrySet().stream()
              .map(
                  e ->
                      URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)
                          + "="
                          + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
              .collect(Collectors.joining("&")));
    }
    String request = "POST /1.0/images (import " + tarball + ")";
    Transport.Response response =
        rest.raw(
            scope,
            "POST",
            "/1.0/images",
            headers,
            new FileEntity(tarball.toFile(), ContentType.APPLICATION_OCTET_STREAM),
            rest.operationTimeout());
    Operation done = rest.async(scope, response, request).await();
    if (!(done.metadata().get("fingerprint") instanceof String fingerprint)) {
      throw new IncusException.Failed(0, request + ": server reported no fingerprint", null);
    }
    for (String alias : aliases == null ? List.<String>of() : aliases) {
      createAlias(alias, fingerprint, null);
    }
    return fingerprint;
  }

  /**
   * Copies an image of this project into {@code targetProject} of the same daemon, unchanged (same
   * fingerprint, no aliases): {@code GET /1.0/images/{fp}/export}, then that tarball (or multipart
   * pair, for a split image) uploaded as-is to {@code POST /1.0/images} there. This is how to share
   * an image between projects over the Unix socket, where incusd cannot pull from itself ({@link
   * #pull} needs its HTTPS address). The export is held in memory while it is uploaded. Returns the
   * fingerprint.
   */
  public String copyToProject(String fingerprint, String targetProject) {
    String request = "copy image " + fingerprint + " to project " + targetProject;
    Transport.Response export =
        rest.raw(
            scope,
            "GET",
            "/1.0/images/" + Scope.segment(fingerprint) + "/export",
            Map.of(),
            null,
            rest.operationTimeout());
    String contentType = export.header("Content-Type");
    Scope target = new Scope(targetProject, scope.target());
    Transport.Response upload =
        rest.raw(
            target,
            "POST",
            "/1.0/images",
            Map.of(),
            new ByteArrayEntity(
                export.body(),
                contentType == null
                    ? ContentType.APPLICATION_OCTET_STREAM
                    : ContentType.parse(contentType)),
            rest.operationTimeout());
    Operation done = rest.async(target, upload, request).await();
    return done.metadata().get("fingerprint") instanceof String copied ? copied : fingerprint;
  }

  /** Publishes a stopped instance as an image in this project; returns the fingerprint. */
  public String publish(ImagePublish publish) {
    Map<String, Object> source = new LinkedHashMap<>();
    source.put("type", "instance");
    source.put("name", publish.instance());
    if (publish.sourceProject() != null) {
      source.put("project", publish.sourceProject());
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("public", publish.isPublic());
    body.put("profiles", publish.profiles());
    body.put("properties", publish.properties());
    body.put("aliases", aliasObjects(publish.aliases()));
    body.put("source", source);
    Operation done = rest.async(scope, "POST", "/1.0/images", body, null).await();
    if (!(done.metadata().get("fingerprint") instanceof String fingerprint)) {
      throw new IncusException.Failed(
          0, "publish " + publish.instance() + ": server reported no fingerprint", null);
    }
    return fingerprint;
  }

  public void delete(String fingerprint) {
    rest.call(scope, "DELETE", "/1.0/images/" + Scope.segment(fingerprint), null, null);
  }

  private static List<Map<String, String>> aliasObjects(List<String> aliases) {
    return aliases == null ? List.of() : aliases.stream().map(a -> Map.of("name", a)).toList();
  }
}
