package io.basalt.server.security;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * Opens internal connections from one server to another: TCP, then TLS when the cluster uses it, then
 * {@link MemberHandshake}, so the peer knows it talks to a member. What remains of the connection is the
 * caller's protocol (HBase RPC, segment transfer).
 */
public final class MemberConnector {
  private final ClusterSecret secret;
  private final ReloadingTls tls;
  private final TlsOptions options;
  private final MemberTls memberTls;

  /** {@code tls} null: plaintext connections. */
  public MemberConnector(ClusterSecret secret, ReloadingTls tls, TlsOptions options) {
    this.secret = secret;
    this.tls = tls;
    this.options = options;
    this.memberTls = null;
  }

  /** Connections to the internal ports over {@code memberTls}: the server's certificate must be a member's. */
  public MemberConnector(ClusterSecret secret, MemberTls memberTls) {
    this.secret = secret;
    this.tls = null;
    this.options = TlsOptions.DEFAULT;
    this.memberTls = memberTls;
  }

  /** Whether {@link #open} encrypts. */
  public boolean encrypts() {
    return tls != null || memberTls != null;
  }

  /** Members of one JVM (standalone, tests): the in-process secret, no TLS. */
  public static MemberConnector inProcess() {
    return new MemberConnector(ClusterSecret.inProcess(), null, TlsOptions.DEFAULT);
  }

  public ClusterSecret secret() {
    return secret;
  }

  /** A connected, member-authenticated socket, with the streams to use (over TLS when on). */
  public Connected open(InetSocketAddress address, int connectTimeoutMillis) throws IOException {
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.connect(address, connectTimeoutMillis);
      s.setSoTimeout(Math.max(connectTimeoutMillis, 1));
      Socket wire = s;
      if (memberTls != null) {
        wire = memberTls.connect(s, address);
      } else if (tls != null) {
        SSLSocket ssl = (SSLSocket) tls.context().getSocketFactory().createSocket(s, address.getHostString(),
            address.getPort(), true);
        ssl.setUseClientMode(true);
        SSLParameters p = ssl.getSSLParameters();
        options.apply(p);
        if (options.verifyPeerHostname()) {
          p.setEndpointIdentificationAlgorithm("HTTPS");
        }
        ssl.setSSLParameters(p);
        ssl.startHandshake();
        wire = ssl;
      }
      DataInputStream in = new DataInputStream(new BufferedInputStream(wire.getInputStream()));
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(wire.getOutputStream()));
      MemberHandshake.prove(in, out, secret, address.toString());
      s.setSoTimeout(0);
      return new Connected(wire, in, out, s);
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /**
   * Proves membership over an already connected blocking channel (plaintext segment transfer, whose file
   * bytes go by sendfile). Streams are unbuffered: nothing past the handshake is consumed.
   */
  public void prove(SocketChannel channel, InetSocketAddress peer) throws IOException {
    MemberHandshake.prove(new DataInputStream(Channels.newInputStream(channel)),
        new DataOutputStream(Channels.newOutputStream(channel)), secret, peer.toString());
  }

  /**
   * A member connection: the socket (TLS or plain), buffered streams over it, and the TCP socket under it
   * (closing that breaks a blocked read or write at once, where closing TLS may wait to send its alert).
   */
  public record Connected(Socket socket, DataInputStream in, DataOutputStream out, Socket tcp) {}
}
