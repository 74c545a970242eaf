package io.basalt.server.status;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP server of a process's info port (HBase's name): status pages and {@code /metrics}, GET only,
 * on the JDK's built-in server with two threads (pages are small and rendered on request).
 */
public final class InfoServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(InfoServer.class);

  /** One answer. */
  public record Response(int status, String contentType, String body) {
    static Response html(int status, String body) {
      return new Response(status, "text/html; charset=utf-8", body);
    }
  }

  private final HttpServer http;
  private final ExecutorService threads;

  static {
    // The JDK server writes a response's headers and body as two segments: without TCP_NODELAY, Nagle holds the
    // body until the client's delayed ACK, 40 ms on every page and /metrics scrape. Read once, when it loads.
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
  }

  /**
   * Listens on {@code host:port} and answers each path of {@code routes}. With {@code anyPortIfBusy}, a busy
   * port is replaced by a free one (logged), as HBase's {@code hbase.*.info.port.auto}: several region
   * servers on one machine then all get a status page.
   */
  public InfoServer(String host, int port, boolean anyPortIfBusy, Map<String, Function<Map<String, String>, Response>> routes)
      throws IOException {
    this(host, port, anyPortIfBusy, routes, null);
  }

  /** {@code https} non-null: HTTPS only, with that context ({@code hbase.ssl.enabled}). */
  public InfoServer(String host, int port, boolean anyPortIfBusy,
      Map<String, Function<Map<String, String>, Response>> routes, SSLContext https) throws IOException {
    HttpServer server;
    try {
      server = create(new InetSocketAddress(host, port), https);
    } catch (BindException e) {
      if (!anyPortIfBusy || port == 0) {
        throw e;
      }
      server = create(new InetSocketAddress(host, 0), https);
      LOG.warn("info port {} is in use; status pages and /metrics are on port {} instead", port,
          server.getAddress().getPort());
    }
    http = server;
    threads = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "basalt-info-server");
      t.setDaemon(true);
      return t;
    });
    http.setExecutor(threads);
    http.createContext("/", exchange -> handle(exchange, routes));
    http.start();
    LOG.info("status pages and /metrics on {}://{}:{}/", https == null ? "http" : "https", host, address().getPort());
  }

  private static HttpServer create(InetSocketAddress address, SSLContext https) throws IOException {
    if (https == null) {
      return HttpServer.create(address, 16);
    }
    HttpsServer server = HttpsServer.create(address, 16);
    server.setHttpsConfigurator(new HttpsConfigurator(https));
    return server;
  }

  public InetSocketAddress address() {
    return http.getAddress();
  }

  private static void handle(HttpExchange exchange, Map<String, Function<Map<String, String>, Response>> routes)
      throws IOException {
    try (exchange) {
      Response r;
      String method = exchange.getRequestMethod();
      if (!method.equals("GET") && !method.equals("HEAD")) {
        exchange.getResponseHeaders().add("Allow", "GET, HEAD");
        r = new Response(405, "text/plain; charset=utf-8", "only GET and HEAD\n");
      } else {
        var route = routes.get(exchange.getRequestURI().getPath());
        if (route == null) {
          r = new Response(404, "text/plain; charset=utf-8", "no page " + exchange.getRequestURI().getPath()
              + " (pages: " + String.join(", ", routes.keySet().stream().sorted().toList()) + ")\n");
        } else {
          try {
            r = route.apply(query(exchange.getRequestURI().getRawQuery()));
          } catch (RuntimeException e) {
            LOG.warn("rendering {} failed", exchange.getRequestURI(), e);
            r = new Response(500, "text/plain; charset=utf-8", "error: " + e + "\n");
          }
        }
      }
      byte[] body = r.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", r.contentType());
      exchange.getResponseHeaders().set("Cache-Control", "no-store");
      exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
      boolean head = method.equals("HEAD");
      exchange.sendResponseHeaders(r.status(), head ? -1 : body.length);
      if (!head) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    }
  }

  static Map<String, String> query(String raw) {
    Map<String, String> out = new HashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      try {
        out.putIfAbsent(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        // malformed escape: ignore that parameter
      }
    }
    return out;
  }

  @Override
  public void close() {
    http.stop(0);
    threads.shutdownNow();
  }
}
