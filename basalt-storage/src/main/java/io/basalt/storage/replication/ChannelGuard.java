package io.basalt.storage.replication;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;

/**
 * Decides who may open a replication connection (the members' replication ports accept TCP from anyone):
 * the connecting side proves something before its first replication byte, the accepting side checks it.
 * With {@link #tls()} the connection is TLS first and the proof travels inside it. The server supplies it
 * (cluster membership, its certificates); storage only runs it.
 */
public interface ChannelGuard {
  /**
   * The connecting side, on a connected blocking channel (TLS when {@link #tls()} is set), before anything
   * else is sent; {@code socket} is the TCP socket under it (for timeouts and the peer's address).
   */
  void prove(ByteChannel channel, Socket socket) throws IOException;

  /** The accepting side of one new connection. */
  Admission admit();

  /** How connections are encrypted, or null for plaintext. */
  default Tls tls() {
    return null;
  }

  /** An accepting side fed the bytes as they arrive (the accepting channel is non-blocking). */
  interface Admission {
    /**
     * Consumes what it needs of {@code in} (bytes past the proof stay there) and returns the bytes to send
     * back, possibly none. Throws once the peer has failed to prove itself.
     */
    ByteBuffer consume(ByteBuffer in) throws IOException;

    /** True once the peer has proven itself. */
    boolean admitted();
  }

  /** TLS for replication connections: the engines of each side and who the accepting side trusts. */
  interface Tls {
    /** A server-mode engine for a connection from {@code peer}; it must ask for a client certificate. */
    SSLEngine acceptEngine(InetSocketAddress peer);

    /** A client-mode engine for a connection to {@code target}. */
    SSLEngine connectEngine(InetSocketAddress target);

    /** Whether the verified peer of a finished handshake may be a member (its certificate's identity). */
    boolean trusted(SSLSession session);
  }
}
