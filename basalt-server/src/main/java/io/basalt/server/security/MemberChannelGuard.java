package io.basalt.server.security;

import io.basalt.storage.replication.ChannelGuard;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.channels.SocketChannel;

/**
 * Cluster membership for JE's replication connections (feeders, elections, member changes, network
 * restore): each proves the {@link ClusterSecret} with {@link MemberHandshake} before JE's own protocol.
 * Authentication only; the replication stream itself is not encrypted.
 */
public final class MemberChannelGuard implements ChannelGuard {
  /** A member that accepts connections but does not answer (a paused process) must not hold a caller long. */
  private static final int HANDSHAKE_TIMEOUT_MILLIS = 5_000;

  private final ClusterSecret secret;

  public MemberChannelGuard(ClusterSecret secret) {
    this.secret = secret;
  }

  @Override
  public void prove(SocketChannel channel) throws IOException {
    Socket socket = channel.socket();
    int timeout = socket.getSoTimeout();
    socket.setSoTimeout(timeout > 0 ? Math.min(timeout, HANDSHAKE_TIMEOUT_MILLIS) : HANDSHAKE_TIMEOUT_MILLIS);
    try {
      // Unbuffered input: nothing past the handshake may be taken from JE.
      MemberHandshake.prove(new DataInputStream(socket.getInputStream()),
          new DataOutputStream(new BufferedOutputStream(socket.getOutputStream())), secret,
          "replication peer " + socket.getRemoteSocketAddress());
    } finally {
      socket.setSoTimeout(timeout);
    }
  }

  @Override
  public Admission admit() {
    return new MemberAdmission(secret);
  }
}
