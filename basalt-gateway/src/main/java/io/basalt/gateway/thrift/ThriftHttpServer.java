package io.basalt.gateway.thrift;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.basalt.gateway.security.ClusterAccess;
import io.basalt.gateway.security.SpnegoAuthenticator;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import javax.net.ssl.SSLContext;
import org.apache.hadoop.security.authorize.AuthorizationException;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;

/**
 * The Thrift gateway's HTTP mode ({@code hbase.regionserver.thrift.http}), as HBase's ThriftHttpServlet: each
 * POST carries one Thrift message in its body and gets the reply in its answer (what Thrift's THttpClient
 * speaks). With Kerberos on, SPNEGO authenticates every request (401 with {@code WWW-Authenticate: Negotiate}
 * without a token) and the call acts as that user; a {@code doAs} header acts for another user if
 * {@code hbase.thrift.support.proxyuser} is on and Hadoop's {@code hadoop.proxyuser.*} rules allow it (403
 * otherwise). HTTPS with {@code hbase.thrift.ssl.*}.
 */
final class ThriftHttpServer implements AutoCloseable {
  /** Bodies are read whole; HBase's servlet has no smaller limit than its frame size. */
  private static final int MAX_BODY_BYTES = 64 * 1024 * 1024;

  private final HttpServer server;

  ThriftHttpServer(InetSocketAddress address, SSLContext tls, SpnegoAuthenticator spnego, boolean proxyUsers,
      ClusterAccess access, TProcessor processor, TProtocolFactory protocol, ExecutorService workers)
      throws IOException {
    if (tls != null) {
      HttpsServer https = HttpsServer.create(address, 128);
      https.setHttpsConfigurator(new HttpsConfigurator(tls));
      server = https;
    } else {
      server = HttpServer.create(address, 128);
    }
    server.setExecutor(workers);
    var context = server.createContext("/", exchange -> {
      try (exchange) {
        if (!exchange.getRequestMethod().equals("POST")) {
          reply(exchange, 405, "text/plain", "Thrift over HTTP takes POST".getBytes(StandardCharsets.UTF_8));
          return;
        }
        String user;
        try {
          user = effectiveUser(exchange, proxyUsers, access);
        } catch (AuthorizationException e) {
          reply(exchange, 403, "text/plain", e.getMessage().getBytes(StandardCharsets.UTF_8));
          return;
        }
        byte[] body = exchange.getRequestBody().readNBytes(MAX_BODY_BYTES + 1);
        if (body.length > MAX_BODY_BYTES) {
          reply(exchange, 413, "text/plain", "request body too large".getBytes(StandardCharsets.UTF_8));
          return;
        }
        TMemoryBuffer out;
        ClusterAccess.actAs(user);
        try {
          out = new TMemoryBuffer(4096);
          processor.process(protocol.getProtocol(new TMemoryInputTransport(body)), protocol.getProtocol(out));
        } catch (TException | RuntimeException e) {
          reply(exchange, 400, "text/plain", ("malformed Thrift request: " + e.getMessage())
              .getBytes(StandardCharsets.UTF_8));
          return;
        } finally {
          ClusterAccess.actAs(null);
        }
        reply(exchange, 200, "application/x-thrift", out.getArray(), out.length());
      }
    });
    if (spnego != null) {
      context.setAuthenticator(spnego);
    }
    server.start();
  }

  /** The SPNEGO user, or its {@code doAs} if allowed; null (the gateway itself) without authentication. */
  private static String effectiveUser(HttpExchange exchange, boolean proxyUsers, ClusterAccess access)
      throws AuthorizationException {
    HttpPrincipal principal = exchange.getPrincipal();
    String authenticated = principal == null ? null : principal.getUsername();
    String doAs = exchange.getRequestHeaders().getFirst("doAs");
    if (doAs == null || doAs.isEmpty()) {
      return authenticated;
    }
    if (!proxyUsers) {
      throw new AuthorizationException("Support for proxyuser is not configured (hbase.thrift.support.proxyuser)");
    }
    if (authenticated == null) {
      throw new AuthorizationException("doAs needs an authenticated user (hbase.security.authentication=kerberos)");
    }
    access.authorizeProxy(authenticated, doAs, exchange.getRemoteAddress().getAddress().getHostAddress());
    return doAs;
  }

  private static void reply(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
    reply(exchange, status, type, body, body.length);
  }

  private static void reply(HttpExchange exchange, int status, String type, byte[] body, int length)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, length == 0 ? -1 : length);
    if (length > 0) {
      try (OutputStream o = exchange.getResponseBody()) {
        o.write(body, 0, length);
      }
    }
  }

  int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(1);
  }
}
