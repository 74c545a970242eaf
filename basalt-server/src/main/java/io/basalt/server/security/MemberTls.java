package io.basalt.server.security;

import io.basalt.storage.replication.ChannelGuard;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;

/**
 * TLS between cluster members on the internal ports (segment transfer, JE HA replication): the process's
 * certificates ({@link ReloadingTls}, so a renewed keystore serves new connections), a client certificate
 * always required of the peer, and the {@link MemberCertificateRule} it must satisfy. The member handshake
 * runs inside the TLS session, so both the certificate and the cluster secret are checked.
 */
public final class MemberTls implements ChannelGuard.Tls {
  private final ReloadingTls tls;
  private final TlsOptions server;
  private final TlsOptions client;
  private final MemberCertificateRule rule;

  /**
   * @param serverOptions protocols, ciphers and client host name check of the accepting side (its client
   *     auth mode is ignored: a member always presents a certificate)
   * @param clientOptions the connecting side's (server host name check)
   */
  public MemberTls(ReloadingTls tls, TlsOptions serverOptions, TlsOptions clientOptions, MemberCertificateRule rule) {
    this.tls = tls;
    this.server = new TlsOptions(serverOptions.protocols(), serverOptions.cipherSuites(), "NEED",
        serverOptions.verifyPeerHostname());
    this.client = clientOptions;
    this.rule = rule;
  }

  public MemberCertificateRule rule() {
    return rule;
  }

  @Override
  public SSLEngine acceptEngine(InetSocketAddress peer) {
    SSLEngine engine = peer == null ? tls.context().createSSLEngine()
        : tls.context().createSSLEngine(peer.getAddress().getHostAddress(), peer.getPort());
    engine.setUseClientMode(false);
    SSLParameters p = engine.getSSLParameters();
    server.applyServer(p);
    engine.setSSLParameters(p);
    return engine;
  }

  @Override
  public SSLEngine connectEngine(InetSocketAddress target) {
    SSLEngine engine = tls.context().createSSLEngine(target.getHostString(), target.getPort());
    engine.setUseClientMode(true);
    SSLParameters p = engine.getSSLParameters();
    applyClient(p);
    engine.setSSLParameters(p);
    return engine;
  }

  @Override
  public boolean trusted(SSLSession session) {
    return rule.matches(session);
  }

  /** The accepting side over a connected socket: TLS handshake done, the client's certificate checked. */
  public SSLSocket accept(Socket socket) throws IOException {
    InetSocketAddress peer = (InetSocketAddress) socket.getRemoteSocketAddress();
    SSLSocket ssl = (SSLSocket) tls.context().getSocketFactory().createSocket(socket,
        peer.getAddress().getHostAddress(), peer.getPort(), true);
    ssl.setUseClientMode(false);
    SSLParameters p = ssl.getSSLParameters();
    server.applyServer(p);
    ssl.setSSLParameters(p);
    ssl.startHandshake();
    requireMember(ssl.getSession(), "client " + peer);
    return ssl;
  }

  /** The connecting side over a connected socket: TLS handshake done, the server's certificate checked. */
  public SSLSocket connect(Socket socket, InetSocketAddress target) throws IOException {
    SSLSocket ssl = (SSLSocket) tls.context().getSocketFactory().createSocket(socket, target.getHostString(),
        target.getPort(), true);
    ssl.setUseClientMode(true);
    SSLParameters p = ssl.getSSLParameters();
    applyClient(p);
    ssl.setSSLParameters(p);
    ssl.startHandshake();
    requireMember(ssl.getSession(), "server " + target);
    return ssl;
  }

  private void applyClient(SSLParameters p) {
    client.apply(p);
    if (client.verifyPeerHostname()) {
      p.setEndpointIdentificationAlgorithm("HTTPS");
    }
  }

  private void requireMember(SSLSession session, String who) throws SSLHandshakeException {
    if (!rule.matches(session)) {
      String subject;
      try {
        subject = session.getPeerPrincipal().getName();
      } catch (IOException e) {
        subject = "none";
      }
      throw new SSLHandshakeException("the certificate of " + who + " (" + subject + ") is not a cluster member's: "
          + "only " + rule + " are (basalt.member.tls.subject)");
    }
  }
}
