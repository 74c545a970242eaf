package io.basalt.server.security;

import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLParameters;

/**
 * How TLS connections are negotiated, from HBase's keys: the protocols ({@code hbase.rpc.tls.enabledProtocols},
 * else {@code hbase.rpc.tls.protocol}), cipher suites ({@code hbase.rpc.tls.ciphersuites}, empty for the JDK's),
 * client certificates (NONE/WANT/NEED) and whether the peer's certificate must name its host.
 */
public record TlsOptions(List<String> protocols, List<String> cipherSuites, String clientAuth,
    boolean verifyPeerHostname) {
  public static final TlsOptions DEFAULT = new TlsOptions(List.of("TLSv1.2"), List.of(), "NEED", true);

  public static List<String> split(String commaSeparated) {
    return Arrays.stream(commaSeparated.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
  }

  /** Sets protocols and cipher suites; client-auth is the server's business ({@link #applyServer}). */
  void apply(SSLParameters p) {
    p.setProtocols(protocols.toArray(String[]::new));
    if (!cipherSuites.isEmpty()) {
      p.setCipherSuites(cipherSuites.toArray(String[]::new));
    }
  }

  void applyServer(SSLParameters p) {
    apply(p);
    switch (clientAuth) {
      case "NEED" -> p.setNeedClientAuth(true);
      case "WANT" -> p.setWantClientAuth(true);
      default -> {
        p.setNeedClientAuth(false);
        p.setWantClientAuth(false);
      }
    }
    if (verifyPeerHostname && !clientAuth.equals("NONE")) {
      // The JDK's trust manager then checks a client certificate against the address the client came from.
      p.setEndpointIdentificationAlgorithm("HTTPS");
    }
  }
}
