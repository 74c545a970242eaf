package io.basalt.gateway.thrift;

import io.basalt.gateway.lifecycle.Resources;
import io.basalt.gateway.security.ClusterAccess;
import io.basalt.gateway.thrift.generated.Hbase;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.apache.hadoop.conf.Configuration;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.TTransportFactory;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code basalt thrift}: HBase's Thrift 1 gateway. A thread-pool server (HBase's default {@code -threadpool}
 * kind: one worker per connection) speaking buffered or framed transport and binary or compact protocol, in
 * front of one shared HBase client connection, so it serves any HBase-compatible cluster. Malformed input ends
 * that client's connection only; the gateway keeps serving everyone else.
 */
public final class ThriftGateway implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ThriftGateway.class);

  private final Resources resources = new Resources("the Thrift gateway");
  private final ThriftGatewayOptions options;
  private final TServerSocket socket;
  private final TServer server; // binary mode; null in HTTP mode
  private final ThriftHttpServer http; // HTTP mode; null in binary mode
  private final MetricsEndpoint metricsEndpoint;
  private final CountDownLatch stopped = new CountDownLatch(1);

  private ThriftGateway(Configuration conf, ThriftGatewayOptions options) throws IOException {
    this.options = options;
    boolean ok = false;
    try {
      ThriftSecurity security = ThriftSecurity.from(conf, options.framed());
      ClusterAccess access = track(ClusterAccess.open(conf, ThriftSecurity.PRINCIPAL, ThriftSecurity.KEYTAB,
          options.bindAddress(), ThriftSecurity.MAX_IDLE));
      ThriftHandler handler = track(new ThriftHandler(access.connection(), options.scannerLeaseMillis()));
      PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      track(registry::close);
      JvmGcMetrics gc = track(new JvmGcMetrics());
      gc.bindTo(registry);
      new JvmMemoryMetrics().bindTo(registry);
      new JvmThreadMetrics().bindTo(registry);
      new ProcessorMetrics().bindTo(registry);
      new UptimeMetrics().bindTo(registry);
      ThriftMetrics metrics = new ThriftMetrics(registry, handler::openScanners);
      metricsEndpoint = options.infoPort() < 0 ? null
          : track(new MetricsEndpoint(options.bindAddress(), options.infoPort(), registry));

      InetSocketAddress address = new InetSocketAddress(options.bindAddress(), options.port());
      TProtocolFactory protocol = options.compact() ? new TCompactProtocol.Factory() : new TBinaryProtocol.Factory();
      AtomicInteger workerIds = new AtomicInteger();
      ThreadPoolExecutor workers = new ThreadPoolExecutor(options.minWorkers(), options.maxWorkers(), 60,
          TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "thrift-worker-" + workerIds.incrementAndGet());
            t.setDaemon(true);
            return t;
          });
      TProcessor processor = new Hbase.Processor<>(metrics.timed(handler));
      if (security.http()) {
        track(workers::shutdownNow);
        socket = null;
        server = null;
        http = track(new ThriftHttpServer(address, security.tls(), security.spnego(conf, access),
            security.proxyUsers(), access, processor, protocol, workers));
        ok = true;
        return;
      }
      http = null;
      socket = track(security.tls() == null ? new TServerSocket(address) : tlsSocket(security.tls(), address));
      TTransportFactory transport = options.framed() ? new TFramedTransport.Factory(options.maxFrameBytes())
          : security.transport(new TTransportFactory(), access, access.login() == null ? ""
              : access.login().getUserName());
      TThreadPoolServer.Args args = new TThreadPoolServer.Args(socket)
          .processor(countingDrops(security.actingForClient(processor), metrics))
          .transportFactory(transport).protocolFactory(protocol).executorService(workers);
      args.stopTimeoutVal = 2;
      args.stopTimeoutUnit = TimeUnit.SECONDS;
      server = new TThreadPoolServer(args);
      Thread serving = new Thread(() -> {
        try {
          server.serve();
        } finally {
          workers.shutdownNow();
          stopped.countDown();
        }
      }, "thrift-gateway");
      serving.setDaemon(true);
      serving.start();
      ok = true;
    } catch (TTransportException e) {
      throw new IOException("cannot listen on " + options.bindAddress() + ":" + options.port() + ": " + e.getMessage(),
          e);
    } finally {
      if (!ok) {
        resources.close();
      }
    }
  }

  private static TServerSocket tlsSocket(SSLContext tls, InetSocketAddress address) throws TTransportException {
    try {
      // The handshake runs on the first read, in the connection's worker thread, not in the accepting one.
      return new TServerSocket(tls.getServerSocketFactory().createServerSocket(address.getPort(), 128,
          address.getAddress()));
    } catch (IOException e) {
      throw new TTransportException(e);
    }
  }

  /** Starts serving with the options in {@code conf} (HBase's thrift keys) against the cluster {@code conf} names. */
  public static ThriftGateway start(Configuration conf) throws IOException {
    ThriftGatewayOptions options = ThriftGatewayOptions.from(conf);
    ThriftGateway gateway = new ThriftGateway(conf, options);
    LOG.info("Thrift 1 gateway on {}:{} ({}{}), /metrics on port {}", options.bindAddress(), gateway.port(),
        gateway.http != null ? "HTTP" : options.describe(), conf.getBoolean("hbase.thrift.ssl.enabled", false)
            ? ", TLS" : "", gateway.metricsPort());
    return gateway;
  }

  /** Ends a connection whose input is malformed, counting it; a client's clean hang-up is not counted. */
  private static TProcessor countingDrops(TProcessor processor, ThriftMetrics metrics) {
    return (TProtocol in, TProtocol out) -> {
      try {
        processor.process(in, out);
      } catch (TTransportException e) {
        // libthrift reports an oversized length field (garbage read as a size) as END_OF_FILE too.
        boolean hangUp = e.getType() == TTransportException.END_OF_FILE
            && (e.getMessage() == null || !e.getMessage().contains("MaxMessageSize"));
        if (!hangUp) {
          metrics.droppedConnection();
          LOG.info("dropped a Thrift connection: {}", e.toString());
        }
        throw e;
      } catch (TException | RuntimeException e) {
        metrics.droppedConnection();
        LOG.info("dropped a Thrift connection on malformed input: {}", e.toString());
        throw e;
      }
    };
  }

  public int port() {
    return http != null ? http.port() : socket.getServerSocket().getLocalPort();
  }

  /** The /metrics port, or -1 when it is off. */
  public int metricsPort() {
    return metricsEndpoint == null ? -1 : metricsEndpoint.port();
  }

  public ThriftGatewayOptions options() {
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
    if (http != null) {
      stopped.countDown();
      resources.close();
      return;
    }
    server.stop();
    try {
      stopped.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    resources.close();
  }
}
