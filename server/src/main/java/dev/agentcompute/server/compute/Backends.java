package dev.agentcompute.server.compute;

import dev.agentcompute.capabilities.config.ComputeConfig;
import dev.agentcompute.capabilities.files.TransferGrants;
import dev.agentcompute.capabilities.files.TransferLimits;
import dev.agentcompute.capabilities.incus.IncusPlatform;
import dev.agentcompute.capabilities.screenshots.ScreenshotStore;
import dev.agentcompute.codemode.AuditSink;
import dev.agentcompute.codemode.Tokens;
import dev.agentcompute.incus.IncusClient;
import dev.agentcompute.ovn.OvnNorthbound;
import dev.agentcompute.server.ServerRuntime;
import java.security.SecureRandom;
import java.util.Optional;

/**
 * What every compute generation shares: the Incus client, the OVN northbound database when {@code
 * incus.ovn_northbound} is configured, and the Mac host when {@code lume:} is (all opened once at
 * startup and closed by {@link ServerRuntime} after the generations); the token signer, so a search
 * cursor or a confirmation issued before a reload is still recognised as ours (then refused as
 * {@code invalid ...} if the catalogue changed); the audit sink; and the screenshot store, which
 * every generation publishes to (a reload keeps the URLs agents were given), and likewise the file
 * transfer URLs.
 */
public record Backends(
    IncusClient incus,
    Optional<OvnNorthbound> northbound,
    Tokens tokens,
    AuditSink audit,
    Optional<ScreenshotStore> screenshots,
    Optional<LumeConnection> lume,
    TransferGrants transfers) {

  /** Without a configured place for file transfer URLs (issuing one is refused). */
  public Backends(
      IncusClient incus,
      Optional<OvnNorthbound> northbound,
      Tokens tokens,
      AuditSink audit,
      Optional<ScreenshotStore> screenshots,
      Optional<LumeConnection> lume) {
    this(
        incus,
        northbound,
        tokens,
        audit,
        screenshots,
        lume,
        new TransferGrants(
            null, TransferLimits.defaults(), java.time.Clock.systemUTC(), new SecureRandom()));
  }

  /** Shared connections with a random token secret, no audit trail, screenshots or Mac host. */
  public Backends(IncusClient incus, Optional<OvnNorthbound> northbound) {
    this(incus, northbound, Tokens.random(), AuditSink.NONE);
  }

  /** Without a screenshot store (desktop.screenshot then fails: screenshots are not configured). */
  public Backends(
      IncusClient incus, Optional<OvnNorthbound> northbound, Tokens tokens, AuditSink audit) {
    this(incus, northbound, tokens, audit, Optional.empty(), Optional.empty());
  }

  /** The Incus platform over the shared connections (which it does not close). */
  IncusPlatform platform(ComputeConfig config) {
    return northbound
        .map(nb -> IncusPlatform.over(incus, config, nb))
        .orElseGet(() -> IncusPlatform.over(incus, config));
  }
}
