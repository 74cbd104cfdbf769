package dev.agentcompute.codemode.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.codemode.protocol.JsonReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The token format of docs/reference/policy.md#tokens. */
class TokenSignerTest {

  static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
  static final byte[] SECRET = new byte[32];
  final TokenSigner signer = new TokenSigner(SECRET);

  String search() {
    return signer
        .sign(TokenKind.SEARCH, "alice/1", "gen-1", NOW, Map.of("q", "d", "o", 20L))
        .token();
  }

  Map<String, Object> verify(TokenKind kind, String token, String scope, Instant at)
      throws Exception {
    return signer.verify(kind, token, () -> scope, "gen-1", at);
  }

  @Test
  void aTokenIsKindPayloadAndMacInUnpaddedBase64url() throws Exception {
    String[] parts = search().split("\\.");

    assertThat(parts).hasSize(3);
    assertThat(parts[0]).isEqualTo("search");
    assertThat(parts[1] + parts[2]).matches("[A-Za-z0-9_-]+");
    assertThat(Base64.getUrlDecoder().decode(parts[2])).hasSize(32);
  }

  @Test
  void thePayloadHoldsExactlyTheCommonAndTheKindsFields() throws Exception {
    String payload = search().split("\\.")[1];
    @SuppressWarnings("unchecked")
    Map<String, Object> p =
        (Map<String, Object>)
            JsonReader.parse(
                new String(Base64.getUrlDecoder().decode(payload), StandardCharsets.UTF_8), 4);

    assertThat(p.keySet()).containsExactlyInAnyOrder("sc", "g", "exp", "n", "q", "o");
    assertThat(p.get("sc")).isEqualTo(TokenSigner.scopeHash("alice/1"));
    assertThat((String) p.get("sc")).hasSize(32).doesNotContain("alice");
    assertThat(p.get("exp")).isEqualTo(NOW.plus(Duration.ofMinutes(10)).getEpochSecond());
    assertThat((String) p.get("n")).matches("[0-9a-f]{32}");
  }

  @Test
  void aValidTokenReturnsItsPayload() throws Exception {
    assertThat(verify(TokenKind.SEARCH, search(), "alice/1", NOW)).containsEntry("o", 20L);
  }

  @Test
  void aTamperedPayloadIsRefused() {
    String[] parts = search().split("\\.");
    String forged =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(
                new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                    .replace("20", "40")
                    .getBytes(StandardCharsets.UTF_8));

    assertThatThrownBy(
            () ->
                verify(TokenKind.SEARCH, parts[0] + "." + forged + "." + parts[2], "alice/1", NOW))
        .isInstanceOf(InvalidToken.class);
  }

  @Test
  void aTokenRelabelledAsAnotherKindIsRefusedByThatKindsKey() {
    String relabelled = search().replaceFirst("^search", "confirmation");

    assertThatThrownBy(() -> verify(TokenKind.CONFIRMATION, relabelled, "alice/1", NOW))
        .isInstanceOf(InvalidToken.class);
  }

  @Test
  void aValidTokenOfAnotherKindIsRefused() {
    assertThatThrownBy(() -> verify(TokenKind.RESOURCES, search(), "alice/1", NOW))
        .isInstanceOf(InvalidToken.class);
  }

  @Test
  void anExpiredTokenIsRefused() {
    assertThatThrownBy(
            () -> verify(TokenKind.SEARCH, search(), "alice/1", NOW.plus(Duration.ofMinutes(10))))
        .isInstanceOf(InvalidToken.class);
  }

  @Test
  void anotherScopeKeyIsRefused() {
    assertThatThrownBy(() -> verify(TokenKind.SEARCH, search(), "alice/2", NOW))
        .isInstanceOf(InvalidToken.class);
  }

  @Test
  void anotherGenerationIsRefused() {
    assertThatThrownBy(
            () -> signer.verify(TokenKind.SEARCH, search(), () -> "alice/1", "gen-2", NOW))
        .isInstanceOf(InvalidToken.class);
  }

  @Test
  void anotherSecretIsRefusedAndTheSameSecretVerifiesOnAnotherInstance() throws Exception {
    byte[] other = new byte[32];
    other[0] = 1;
    String token = search();

    assertThat(
            new TokenSigner(SECRET).verify(TokenKind.SEARCH, token, () -> "alice/1", "gen-1", NOW))
        .containsEntry("q", "d");
    assertThatThrownBy(
            () ->
                new TokenSigner(other)
                    .verify(TokenKind.SEARCH, token, () -> "alice/1", "gen-1", NOW))
        .isInstanceOf(InvalidToken.class);
  }

  @Test
  void theScopeKeyIsComputedOnlyAfterTheMacAndExpiryPassed() {
    assertThatThrownBy(
            () ->
                signer.verify(
                    TokenKind.SEARCH,
                    "search.e30.AAAA",
                    () -> {
                      throw new AssertionError("asked for the scope key of a forged token");
                    },
                    "gen-1",
                    NOW))
        .isInstanceOf(InvalidToken.class);
  }

  @Test
  void garbageIsRefused() {
    for (String garbage : new String[] {"", "a.b", "a.b.c.d", "search..", "nope.e30.AAAA"}) {
      assertThatThrownBy(() -> verify(TokenKind.SEARCH, garbage, "alice/1", NOW))
          .as(garbage)
          .isInstanceOf(InvalidToken.class);
    }
  }

  @Test
  void aSecretIsExactly32Bytes() {
    assertThatThrownBy(() -> new TokenSigner(new byte[31]))
        .hasMessage("a token secret is exactly 32 bytes");
  }

  @Test
  void aConsumedNonceIsUsedUntilItsTokenExpires() {
    NonceLedger ledger = new NonceLedger();

    assertThat(ledger.consume("n1", NOW.getEpochSecond() + 300, NOW)).isTrue();
    assertThat(ledger.consume("n1", NOW.getEpochSecond() + 300, NOW)).isFalse();
    assertThat(ledger.isUsed("n1")).isTrue();
    ledger.consume("n2", NOW.getEpochSecond() + 900, NOW.plusSeconds(301));
    assertThat(ledger.isUsed("n1")).as("forgotten once expired").isFalse();
  }
}
