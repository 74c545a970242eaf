package io.basalt.gateway.rest;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.basalt.gateway.lifecycle.Resources;
import io.basalt.gateway.security.ClusterAccess;
import io.basalt.gateway.thrift.MetricsEndpoint;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code basalt rest}: HBase's REST API ("Stargate") in front of one shared HBase client connection, so it serves
 * any HBase-compatible cluster. The JDK's own HTTP server does the HTTP (the status pages and /metrics use it
 * already): no servlet container, no JAX-RS. Bad input gets its 4xx and the gateway goes on serving.
 */
public final class RestGateway implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RestGateway.class);

  static {
    MetricsEndpoint.noDelay();
  }

  /** Request bodies are read whole; a bigger one is refused with 413 rather than risk the heap. */
  static final int MAX_BODY_BYTES = 64 * 1024 * 1024;

  private final Resources resources = new Resources("the REST gateway");
  private final RestGatewayOptions options;
  private final HttpServer server;
  private final MetricsEndpoint metricsEndpoint;
  private final CountDownLatch stopped = new CountDownLatch(1);

  private RestGateway(Configuration conf, RestGatewayOptions options) throws IOException {
    this.options = options;
    boolean ok = false;
    try {
      RestSecurity security = RestSecurity.from(conf);
      ClusterAccess access = track(ClusterAccess.open(conf, RestSecurity.PRINCIPAL, RestSecurity.KEYTAB,
          options.bindAddress(), RestSecurity.MAX_IDLE));
      RestScanners scanners = track(new RestScanners(TimeUnit.MILLISECONDS.toNanos(options.scannerLeaseMillis()),
          System::nanoTime));
      RestRouter router = new RestRouter(access.connection(), scanners, options.readOnly());
      PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      track(registry::close);
      JvmGcMetrics gc = track(new JvmGcMetrics());
      gc.bindTo(registry);
      new JvmMemoryMetrics().bindTo(registry);
      new JvmThreadMetrics().bindTo(registry);
      new ProcessorMetrics().bindTo(registry);
      new UptimeMetrics().bindTo(registry);
      RestMetrics metrics = new RestMetrics(registry, scanners::size);
      metricsEndpoint = options.infoPort() < 0 ? null
          : track(new MetricsEndpoint(options.bindAddress(), options.infoPort(), registry));

      InetSocketAddress address = new InetSocketAddress(options.bindAddress(), options.port());
      try {
        if (security.tls() != null) {
          HttpsServer https = HttpsServer.create(address, 128);
          https.setHttpsConfigurator(new HttpsConfigurator(security.tls()));
          server = https;
        } else {
          server = HttpServer.create(address, 128);
        }
      } catch (IOException e) {
        throw new IOException("cannot listen on " + options.bindAddress() + ":" + options.port() + ": "
            + e.getMessage(), e);
      }
      AtomicInteger workerIds = new AtomicInteger();
      // Core threads grow to the max before requests queue (core == max, idle ones time out to the min's worth).
      ThreadPoolExecutor workers = new ThreadPoolExecutor(options.maxThreads(), options.maxThreads(), 60,
          TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "rest-worker-" + workerIds.incrementAndGet());
            t.setDaemon(true);
            return t;
          });
      workers.allowCoreThreadTimeOut(true);
      track(workers::shutdownNow);
      server.setExecutor(workers);
      String scheme = security.tls() != null ? "https://" : "http://";
      HttpContext root = server.createContext("/", exchange -> {
        try {
          ClusterAccess.actAs(security.effectiveUser(exchange, access));
          serve(exchange, router, metrics, scheme);
        } catch (RestException e) {
          refuse(exchange, e, metrics);
        } finally {
          ClusterAccess.actAs(null);
        }
      });
      if (security.spnego() != null) {
        root.setAuthenticator(security.spnego());
      }
      server.start();
      ok = true;
    } finally {
      if (!ok) {
        resources.close();
      }
    }
  }

  /** Starts serving with the options in {@code conf} (HBase's REST keys) against the cluster {@code conf} names. */
  public static RestGateway start(Configuration conf) throws IOException {
    RestGatewayOptions options = RestGatewayOptions.from(conf);
    RestGateway gateway = new RestGateway(conf, options);
    LOG.info("REST gateway on {}:{}{}, /metrics on port {}{}", options.bindAddress(), gateway.port(),
        gateway.server instanceof HttpsServer ? " (HTTPS)" : "", gateway.metricsPort(),
        options.readOnly() ? " (read-only)" : "");
    return gateway;
  }

  /** A request refused before it reached a resource (a doAs not allowed). */
  private static void refuse(HttpExchange exchange, RestException e, RestMetrics metrics) throws IOException {
    long start = System.nanoTime();
    try (exchange) {
      RestReply reply = RestReply.error(e.status, e.getMessage());
      exchange.getResponseHeaders().set("Content-Type", reply.contentType());
      exchange.sendResponseHeaders(reply.status(), reply.body().length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(reply.body());
      }
    } finally {
      metrics.record(exchange.getRequestMethod(), "unknown", e.status, System.nanoTime() - start);
    }
  }

  private static void serve(HttpExchange exchange, RestRouter router, RestMetrics metrics, String scheme)
      throws IOException {
    long start = System.nanoTime();
    String method = exchange.getRequestMethod();
    String resource = "unknown";
    int status = 500;
    try (exchange) {
      RestReply reply;
      try {
        byte[] body = readBody(exchange.getRequestBody());
        Map<String, String> cellHeaders = new HashMap<>();
        for (String header : RestRequest.CELL_HEADERS) {
          cellHeaders.put(header, exchange.getRequestHeaders().getFirst(header));
        }
        RestRequest req = RestRequest.of(method, exchange.getRequestURI().getRawPath(),
            exchange.getRequestURI().getRawQuery(), exchange.getRequestHeaders().getFirst("Accept"),
            exchange.getRequestHeaders().getFirst("Content-Type"), body, cellHeaders);
        resource = RestRouter.resourceOf(req.segments());
        reply = router.handle(req, baseUrl(exchange, scheme));
      } catch (RestException e) {
        reply = RestReply.error(e.status, e.getMessage());
      }
      status = reply.status();
      reply.headers().forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
      if (reply.contentType() != null) {
        exchange.getResponseHeaders().set("Content-Type", reply.contentType());
      }
      boolean noBody = reply.body().length == 0 || method.equals("HEAD");
      exchange.sendResponseHeaders(status, noBody ? -1 : reply.body().length);
      if (!noBody) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(reply.body());
        }
      }
    } finally {
      metrics.record(method, resource, status, System.nanoTime() - start);
    }
  }

  private static byte[] readBody(InputStream in) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
      body.write(buffer, 0, n);
      if (body.size() > MAX_BODY_BYTES) {
        throw new RestException(413, "request body over " + MAX_BODY_BYTES + " bytes");
      }
    }
    return body.toByteArray();
  }

  /** Where the client reached us, for the Location of a new scanner. */
  private static String baseUrl(HttpExchange exchange, String scheme) {
    String host = exchange.getRequestHeaders().getFirst("Host");
    if (host == null || host.isBlank()) {
      InetSocketAddress local = exchange.getLocalAddress();
      host = local.getHostString() + ":" + local.getPort();
    }
    return scheme + host;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** The /metrics port, or -1 when it is off. */
  public int metricsPort() {
    return metricsEndpoint == null ? -1 : metricsEndpoint.port();
  }

  public RestGatewayOptions options() {
    return options;
  }

  /** Blocks until the gateway stops. */
  public void awaitStop() throws InterruptedException {
    stopped.await();
  }

  private <T extends AutoCloseable> T track(T resource) {
    return resources.track(resource);
  }

  @Override
  public void close() {
    server.stop(1);
    resources.close();
    stopped.countDown();
  }
}
