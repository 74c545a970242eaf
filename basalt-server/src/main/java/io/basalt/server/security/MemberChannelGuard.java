package io.basalt.server.security;

import io.basalt.storage.replication.ChannelGuard;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.channels.ByteChannel;
import java.nio.channels.Channels;

/**
 * Cluster membership for JE's replication connections (feeders, elections, member changes, network
 * restore): each proves the {@link ClusterSecret} with {@link MemberHandshake} before JE's own protocol.
 * With {@link MemberTls} the connection is TLS first (JE's SSL channel, the members' certificates) and the
 * handshake runs inside it; without, it is authenticated but not encrypted.
 */
public final class MemberChannelGuard implements ChannelGuard {
  /** A member that accepts connections but does not answer (a paused process) must not hold a caller long. */
  private static final int HANDSHAKE_TIMEOUT_MILLIS = 5_000;

  private final ClusterSecret secret;
  private final MemberTls tls;

  /** Plaintext replication connections, authenticated by the secret. */
  public MemberChannelGuard(ClusterSecret secret) {
    this(secret, null);
  }

  /** {@code tls} null: plaintext. */
  public MemberChannelGuard(ClusterSecret secret, MemberTls tls) {
    this.secret = secret;
    this.tls = tls;
  }

  @Override
  public void prove(ByteChannel channel, Socket socket) throws IOException {
    int timeout = socket.getSoTimeout();
    socket.setSoTimeout(timeout > 0 ? Math.min(timeout, HANDSHAKE_TIMEOUT_MILLIS) : HANDSHAKE_TIMEOUT_MILLIS);
    try {
      // Unbuffered input: nothing past the handshake may be taken from JE.
      MemberHandshake.prove(new DataInputStream(Channels.newInputStream(channel)),
          new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel))), secret,
          "replication peer " + socket.getRemoteSocketAddress());
    } finally {
      socket.setSoTimeout(timeout);
    }
  }

  @Override
  public Admission admit() {
    return new MemberAdmission(secret);
  }

  @Override
  public Tls tls() {
    return tls;
  }
}
