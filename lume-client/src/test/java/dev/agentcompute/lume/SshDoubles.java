package dev.agentcompute.lume;

import java.io.IOException;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.sshd.client.future.OpenFuture;
import org.apache.sshd.common.channel.ChannelFactory;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.common.util.buffer.Buffer;
import org.apache.sshd.common.util.buffer.ByteArrayBuffer;
import org.apache.sshd.common.util.net.SshdSocketAddress;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.auth.pubkey.KeySetPublickeyAuthenticator;
import org.apache.sshd.server.channel.ChannelSessionFactory;
import org.apache.sshd.server.forward.AcceptAllForwardingFilter;
import org.apache.sshd.server.forward.TcpForwardingFilter;
import org.apache.sshd.server.forward.TcpipServerChannel;

/**
 * Real MINA SSH servers for the doubles: public-key auth for exactly one key, a fixed host key,
 * exec through {@link ShellCommand}, and {@code direct-tcpip} whose targets go through a routing
 * function (the Mac's {@code 127.0.0.1:7777} and guests' {@code <ip>:22} lead to local ports).
 */
final class SshDoubles {
  private SshDoubles() {}

  static SshServer server(
      int port,
      KeyPair hostKey,
      KeyPair acceptedKey,
      Path home,
      Consumer<String> commands,
      Function<SshdSocketAddress, SshdSocketAddress> routes,
      PathAliases aliases)
      throws IOException {
    SshServer sshd = SshServer.setUpDefaultServer();
    sshd.setHost("127.0.0.1");
    sshd.setPort(port);
    sshd.setKeyPairProvider(KeyPairProvider.wrap(hostKey));
    sshd.setPublickeyAuthenticator(
        new KeySetPublickeyAuthenticator("test", List.of(acceptedKey.getPublic())));
    sshd.setPasswordAuthenticator(null);
    sshd.setKeyboardInteractiveAuthenticator(null);
    sshd.setCommandFactory(
        (channel, command) -> new ShellCommand(command, home, commands, aliases));
    if (routes != null) {
      sshd.setForwardingFilter(AcceptAllForwardingFilter.INSTANCE);
      sshd.setChannelFactories(List.of(ChannelSessionFactory.INSTANCE, routing(routes)));
    }
    return sshd;
  }

  private static ChannelFactory routing(Function<SshdSocketAddress, SshdSocketAddress> routes) {
    return new ChannelFactory() {
      @Override
      public String getName() {
        return "direct-tcpip";
      }

      @Override
      public org.apache.sshd.common.channel.Channel createChannel(
          org.apache.sshd.common.session.Session session) {
        return new TcpipServerChannel(TcpForwardingFilter.Type.Direct, null) {
          @Override
          protected OpenFuture doInit(Buffer buffer) {
            SshdSocketAddress asked =
                new SshdSocketAddress(buffer.getString(), (int) buffer.getUInt());
            String originHost = buffer.getString();
            int originPort = (int) buffer.getUInt();
            SshdSocketAddress to = routes.apply(asked);
            Buffer rewritten = new ByteArrayBuffer();
            rewritten.putString(to.getHostName());
            rewritten.putUInt(to.getPort());
            rewritten.putString(originHost);
            rewritten.putUInt(originPort);
            return super.doInit(rewritten);
          }
        };
      }
    };
  }
}
