package dev.agentcompute.codemode;

import dev.agentcompute.codemode.tokens.NonceLedger;
import dev.agentcompute.codemode.tokens.TokenSigner;

/**
 * The secret that signs search cursors, resource list cursors and confirmation tokens, and the
 * memory of which confirmation tokens were used (docs/reference/policy.md#tokens). A random secret
 * lasts as long as the process: its tokens stop working at a restart. A configured secret (the
 * server's {@code tokens_secret_file}) lets tokens survive restarts and work on every server
 * instance that shares it; single use of a confirmation still holds per instance. Share one {@code
 * Tokens} across the rebuilds of a server (configuration reloads) so a used confirmation stays
 * used.
 */
public final class Tokens {

  private final TokenSigner signer;
  private final NonceLedger ledger = new NonceLedger();

  private Tokens(byte[] secret) {
    this.signer = new TokenSigner(secret);
  }

  /** A fresh random 32-byte secret. */
  public static Tokens random() {
    return new Tokens(TokenSigner.randomSecret());
  }

  /**
   * Tokens signed with {@code secret}, which must be exactly 32 bytes (a systemd credential file,
   * never the configuration file itself). The array is not kept.
   */
  public static Tokens withSecret(byte[] secret) {
    return new Tokens(secret.clone());
  }

  TokenSigner signer() {
    return signer;
  }

  NonceLedger ledger() {
    return ledger;
  }
}
