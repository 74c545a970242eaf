package io.basalt.gateway.thrift;

import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/** {@code GET /metrics} in Prometheus's text format, the same scrape the servers' info ports answer. */
public final class MetricsEndpoint implements AutoCloseable {
  private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
  private final HttpServer server;

  static {
    noDelay();
  }

  /**
   * The JDK server writes a response's headers and body as two segments: without TCP_NODELAY, Nagle holds the
   * body until the client's delayed ACK, 40 ms on every answer. The JDK reads the setting once, when its
   * server first loads: call this before creating one.
   */
  public static void noDelay() {
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
  }

  public MetricsEndpoint(String host, int port, PrometheusMeterRegistry registry) throws IOException {
    server = HttpServer.create(new InetSocketAddress(host, port), 16);
    server.createContext("/metrics", exchange -> {
      byte[] body = registry.scrape(CONTENT_TYPE).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    server.start();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
