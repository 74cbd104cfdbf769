package dev.agentcompute.server.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentcompute.server.auth.BearerTokens;
import dev.agentcompute.server.auth.BearerTokensFile;
import dev.agentcompute.server.config.ServerConfig;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class AdminAccessTest {
  private final BearerTokens tokens =
      BearerTokensFile.parse(
          "{\"alice\": \"alice-token\", \"bob\": \"bob-token\"}".getBytes(StandardCharsets.UTF_8));
  private final AtomicReference<ServerConfig.Admin> admin =
      new AtomicReference<>(new ServerConfig.Admin(Set.of("alice")));
  private final AdminAccess access = new AdminAccess(Optional.of(tokens), admin::get);

  @Test
  void anOperatorsTokenNamesTheOperator() {
    assertThat(access.operator(Optional.of("alice-token"))).isEqualTo("alice");
  }

  @Test
  void noTokenIs401() {
    assertThatThrownBy(() -> access.operator(Optional.empty()))
        .isInstanceOfSatisfying(AdminException.class, e -> assertThat(e.status()).isEqualTo(401))
        .hasMessageContaining("admin.operators");
  }

  @Test
  void anUnknownTokenIs401() {
    assertThatThrownBy(() -> access.operator(Optional.of("guess")))
        .isInstanceOfSatisfying(AdminException.class, e -> assertThat(e.status()).isEqualTo(401));
  }

  @Test
  void aValidTokenOfAnIdentityThatIsNoOperatorIs403NamingTheKey() {
    assertThatThrownBy(() -> access.operator(Optional.of("bob-token")))
        .isInstanceOfSatisfying(AdminException.class, e -> assertThat(e.status()).isEqualTo(403))
        .hasMessage(
            "identity \"bob\" is not an operator: add it to admin.operators in the configuration"
                + " file");
  }

  @Test
  void aReloadedConfigurationGrantsAndRevokesAtTheNextRequest() {
    admin.set(new ServerConfig.Admin(Set.of("bob")));
    assertThat(access.operator(Optional.of("bob-token"))).isEqualTo("bob");
    assertThatThrownBy(() -> access.operator(Optional.of("alice-token")))
        .isInstanceOfSatisfying(AdminException.class, e -> assertThat(e.status()).isEqualTo(403));
  }

  @Test
  void aRevokedTokenStopsWorkingAtOnce() {
    Set<String> revoked =
        tokens.replaceWith(
            BearerTokensFile.parse("{\"alice\": \"new-token\"}".getBytes(StandardCharsets.UTF_8)));
    assertThat(revoked).containsExactly("alice", "bob");
    assertThatThrownBy(() -> access.operator(Optional.of("alice-token")))
        .isInstanceOfSatisfying(AdminException.class, e -> assertThat(e.status()).isEqualTo(401));
    assertThat(access.operator(Optional.of("new-token"))).isEqualTo("alice");
  }

  @Test
  void withoutTokensTheCallerIsDevelopmentAndNeedsTheGrantToo() {
    AdminAccess dev = new AdminAccess(Optional.empty(), admin::get);
    assertThatThrownBy(() -> dev.operator(Optional.empty()))
        .isInstanceOfSatisfying(AdminException.class, e -> assertThat(e.status()).isEqualTo(403))
        .hasMessageContaining("\"development\"");
    admin.set(new ServerConfig.Admin(Set.of("development")));
    assertThat(dev.operator(Optional.empty())).isEqualTo("development");
  }

  @Test
  void bearerHeadersAreReadCaseInsensitively() {
    assertThat(AdminAccess.bearer(Optional.of("bearer abc"))).contains("abc");
    assertThat(AdminAccess.bearer(Optional.of("Basic abc"))).isEmpty();
    assertThat(AdminAccess.bearer(Optional.empty())).isEmpty();
  }
}
