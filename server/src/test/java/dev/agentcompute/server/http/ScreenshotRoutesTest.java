package dev.agentcompute.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.capabilities.screenshots.ScreenshotStore;
import io.helidon.webserver.WebServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ScreenshotRoutesTest {
  private static final Instant T0 = Instant.parse("2026-12-02T00:00:00Z");
  private final HttpClient http = HttpClient.newHttpClient();
  private final MovableClock clock = new MovableClock();
  private ScreenshotStore store;
  private WebServer server;

  private static final class MovableClock extends Clock {
    Instant now = T0;

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }

  /** A PNG header of 2x1 pixels padded to 100 bytes (the route serves bytes, never decodes). */
  static byte[] png() {
    ByteBuffer b = ByteBuffer.allocate(100);
    b.put(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}).putInt(13);
    byte[] ihdr =
        ByteBuffer.allocate(17)
            .put("IHDR".getBytes())
            .putInt(2)
            .putInt(1)
            .put(new byte[] {8, 2, 0, 0, 0})
            .array();
    CRC32 crc = new CRC32();
    crc.update(ihdr);
    b.put(ihdr).putInt((int) crc.getValue());
    return b.array();
  }

  private String start(String baseUrlPath) {
    server = null;
    store =
        new ScreenshotStore(
            URI.create("http://127.0.0.1:1" + baseUrlPath), clock, new SecureRandom());
    server = ScreenshotRoutes.listen(new ListenAddress("127.0.0.1", 0), store);
    return "http://127.0.0.1:" + server.port() + baseUrlPath;
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop();
    }
  }

  private HttpResponse<byte[]> send(String method, String url)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(url))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  @Test
  void getServesThePngWithTheExactHeaders() throws Exception {
    String base = start("");
    String id = store.publish("s1", null, png()).id();
    HttpResponse<byte[]> r = send("GET", base + "/screenshots/" + id);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).isEqualTo(png());
    assertThat(r.headers().firstValue("Content-Type")).hasValue("image/png");
    assertThat(r.headers().firstValue("Cache-Control")).hasValue("no-store");
    assertThat(r.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(r.headers().firstValue("Content-Length")).hasValue("100");
  }

  @Test
  void headAnswersTheHeadersWithoutTheBody() throws Exception {
    String base = start("");
    String id = store.publish("s1", null, png()).id();
    HttpResponse<byte[]> r = send("HEAD", base + "/screenshots/" + id);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).isEmpty();
    assertThat(r.headers().firstValue("Content-Type")).hasValue("image/png");
    assertThat(r.headers().firstValue("Content-Length")).hasValue("100");
    assertThat(r.headers().firstValue("Cache-Control")).hasValue("no-store");
  }

  @ParameterizedTest
  @ValueSource(strings = {"POST", "PUT", "DELETE", "PATCH", "OPTIONS"})
  void otherMethodsAre405WithAllow(String method) throws Exception {
    String base = start("");
    String id = store.publish("s1", null, png()).id();
    HttpResponse<byte[]> r = send(method, base + "/screenshots/" + id);
    assertThat(r.statusCode()).isEqualTo(405);
    assertThat(r.headers().firstValue("Allow")).hasValue("GET, HEAD");
    assertThat(store.find(id)).as("a DELETE does not delete").isPresent();
  }

  @Test
  void anUnknownIdIs404() throws Exception {
    String base = start("");
    assertThat(send("GET", base + "/screenshots/" + "0".repeat(32)).statusCode()).isEqualTo(404);
  }

  @Test
  void anExpiredScreenshotIs404() throws Exception {
    String base = start("");
    String id = store.publish("s1", null, png()).id();
    clock.now = T0.plus(ScreenshotStore.RETENTION);
    assertThat(send("GET", base + "/screenshots/" + id).statusCode()).isEqualTo(404);
    assertThat(send("HEAD", base + "/screenshots/" + id).statusCode()).isEqualTo(404);
  }

  @Test
  void aPurgedScreenshotIs404() throws Exception {
    String base = start("");
    String id = store.publish("s1", null, png()).id();
    store.purge("s1");
    assertThat(send("GET", base + "/screenshots/" + id).statusCode()).isEqualTo(404);
  }

  @Test
  void theRouteLivesUnderTheBaseUrlsPath() throws Exception {
    String base = start("/shots");
    String id = store.publish("s1", null, png()).id();
    assertThat(store.url(id).getPath()).isEqualTo("/shots/screenshots/" + id);
    assertThat(send("GET", base + "/screenshots/" + id).statusCode()).isEqualTo(200);
    assertThat(send("GET", base.replace("/shots", "") + "/screenshots/" + id).statusCode())
        .isEqualTo(404);
  }
}
