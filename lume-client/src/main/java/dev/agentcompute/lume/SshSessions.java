package dev.agentcompute.lume;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.auth.pubkey.UserAuthPublicKeyFactory;
import org.apache.sshd.client.config.hosts.HostConfigEntryResolver;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.AttributeRepository;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;
import org.apache.sshd.common.util.security.SecurityUtils;

/**
 * One MINA client for every SSH login this module makes, configured the way the original's
 * generated ssh_config is: publickey only, no agent, no default identities, no {@code
 * ~/.ssh/config} (MINA reads it unless told not to) and strict host keys, checked per login against
 * the file and name that login names (its {@link KnownHosts} travels in the connection context).
 */
final class SshSessions implements AutoCloseable {
  static final Duration DIAL_TIMEOUT = Duration.ofSeconds(30);

  private static final AttributeRepository.AttributeKey<KnownHosts> VERIFIER =
      new AttributeRepository.AttributeKey<>();

  private final SshClient client;

  SshSessions() {
    client = SshClient.setUpDefaultClient();
    client.setHostConfigEntryResolver(HostConfigEntryResolver.EMPTY);
    client.setKeyIdentityProvider(KeyIdentityProvider.EMPTY_KEYS_PROVIDER);
    client.setUserAuthFactories(List.of(UserAuthPublicKeyFactory.INSTANCE));
    client.setServerKeyVerifier(
        (session, remote, key) -> {
          KnownHosts verifier = session.getConnectionContext().getAttribute(VERIFIER);
          return verifier != null && verifier.verifyServerKey(session, remote, key);
        });
    client.start();
  }

  /**
   * Logs in to {@code dialHost:dialPort} as {@code endpoint} says; the host key is checked under
   * {@code endpoint.hostKeyName()}.
   *
   * @throws LumeException.Unavailable when the host cannot be reached, refuses the key, or offers a
   *     host key the known_hosts file does not list (the message says which)
   */
  ClientSession login(SshEndpoint endpoint, String dialHost, int dialPort, Duration timeout)
      throws LumeException.Unavailable {
    String who = endpoint.user() + "@" + endpoint.host() + ":" + endpoint.port();
    KeyPair identity = identity(endpoint, who);
    KnownHosts verifier =
        new KnownHosts(endpoint.knownHosts(), endpoint.hostKeyName(), endpoint.port());
    ClientSession session = null;
    try {
      session =
          client
              .connect(
                  endpoint.user(),
                  dialHost,
                  dialPort,
                  AttributeRepository.ofKeyValuePair(VERIFIER, verifier))
              .verify(timeout)
              .getSession();
      session.addPublicKeyIdentity(identity);
      session.auth().verify(timeout);
      return session;
    } catch (IOException | RuntimeException e) {
      if (session != null) {
        session.close(true);
      }
      String why = verifier.refusal().isEmpty() ? describe(e) : verifier.refusal();
      throw new LumeException.Unavailable("ssh " + who + ": " + why, 0, e);
    }
  }

  private static KeyPair identity(SshEndpoint endpoint, String who)
      throws LumeException.Unavailable {
    try (InputStream in = Files.newInputStream(endpoint.identity())) {
      Iterable<KeyPair> keys =
          SecurityUtils.loadKeyPairIdentities(
              null, NamedResource.ofName(endpoint.identity().toString()), in, null);
      Iterator<KeyPair> it = keys == null ? null : keys.iterator();
      if (it == null || !it.hasNext()) {
        throw new LumeException.Unavailable(
            "ssh " + who + ": no private key in " + endpoint.identity(), 0, null);
      }
      return it.next();
    } catch (IOException | GeneralSecurityException e) {
      throw new LumeException.Unavailable(
          "ssh " + who + ": cannot read identity file " + endpoint.identity() + ": " + describe(e),
          0,
          e);
    }
  }

  static String describe(Throwable e) {
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }

  @Override
  public void close() {
    client.stop();
  }
}
