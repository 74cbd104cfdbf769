package dev.agentcompute.server.http;

import dev.agentcompute.capabilities.screenshots.ScreenshotStore;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.spi.ServerFeature;
import java.util.Optional;

/**
 * The screenshot store over HTTP (docs/reference/capabilities.md#screenshot-store): {@code GET} and
 * {@code HEAD} of {@code <base path>/screenshots/<id>}, outside bearer authentication (the 128-bit
 * id is the capability). Every other method is 405 with {@code Allow: GET, HEAD}; an unknown or
 * expired id is 404. Nothing is cached or sniffed.
 */
public final class ScreenshotRoutes implements ServerFeature {
  private static final Header NOSNIFF =
      HeaderValues.create(HeaderNames.create("X-Content-Type-Options"), "nosniff");

  private final ScreenshotStore store;

  public ScreenshotRoutes(ScreenshotStore store) {
    this.store = store;
  }

  @Override
  public void setup(ServerFeatureContext context) {
    context
        .socket(WebServer.DEFAULT_SOCKET_NAME)
        .httpRouting()
        .any(store.routePrefix() + "/{id}", this::serve);
  }

  /** A listener serving only the store (stdio mode's {@code screenshots.listen}). */
  public static WebServer listen(ListenAddress address, ScreenshotStore store) {
    WebServerConfig.Builder builder =
        WebServer.builder()
            .host(address.bindHost())
            .port(address.port())
            .shutdownHook(false)
            .featuresDiscoverServices(false)
            .addFeature(new ScreenshotRoutes(store));
    return builder.build().start();
  }

  private void serve(ServerRequest req, ServerResponse res) {
    res.header(HeaderNames.CACHE_CONTROL, "no-store");
    res.header(NOSNIFF);
    Method method = req.prologue().method();
    if (!method.equals(Method.GET) && !method.equals(Method.HEAD)) {
      res.status(Status.METHOD_NOT_ALLOWED_405).header(HeaderNames.ALLOW, "GET, HEAD").send();
      return;
    }
    Optional<ScreenshotStore.Screenshot> shot = store.find(req.path().pathParameters().get("id"));
    if (shot.isEmpty()) {
      res.status(Status.NOT_FOUND_404).send();
      return;
    }
    res.header(HeaderNames.CONTENT_TYPE, "image/png");
    if (method.equals(Method.HEAD)) {
      res.header(HeaderNames.CONTENT_LENGTH, Integer.toString(shot.get().png().length));
      res.send();
      return;
    }
    res.send(shot.get().png());
  }

  @Override
  public String name() {
    return "screenshots";
  }

  @Override
  public String type() {
    return "screenshots";
  }
}
