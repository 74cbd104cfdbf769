package dev.agentcompute.server.compute;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentcompute.incus.IncusIdentity;
import java.security.Security;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.Test;

class IncusPreflightTest {
  private static final IncusIdentity ONE = IncusIdentity.generate("one");
  private static final IncusIdentity TWO = IncusIdentity.generate("two");

  private static boolean pair(IncusIdentity cert, IncusIdentity key) {
    return IncusPreflight.belongTogether(
        IncusIdentity.fromPem(cert.certificatePem(), key.privateKeyPem()));
  }

  @Test
  void aKeyBelongsToItsOwnCertificateOnly() {
    assertThat(pair(ONE, ONE)).isTrue();
    assertThat(pair(ONE, TWO)).isFalse();
  }

  /** With BouncyCastle registered (some library may do it), the PEM parser names EC keys ECDSA. */
  @Test
  void theCheckHoldsWhicheverProviderParsedTheKey() {
    boolean added = Security.addProvider(new BouncyCastleProvider()) != -1;
    try {
      IncusIdentity parsed = IncusIdentity.fromPem(ONE.certificatePem(), TWO.privateKeyPem());
      assertThat(parsed.privateKey().getAlgorithm()).isIn("EC", "ECDSA");
      assertThat(pair(ONE, TWO)).isFalse();
      assertThat(pair(TWO, TWO)).isTrue();
    } finally {
      if (added) {
        Security.removeProvider(BouncyCastleProvider.PROVIDER_NAME);
      }
    }
  }
}
