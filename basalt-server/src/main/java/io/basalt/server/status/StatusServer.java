package io.basalt.server.status;

import io.basalt.server.master.MasterNode;
import io.basalt.server.metrics.MasterMetrics;
import io.basalt.server.metrics.Metrics;
import io.basalt.server.metrics.RegionServerMetrics;
import io.basalt.server.metrics.RpcMetrics;
import io.basalt.server.regionserver.RegionServerNode;
import java.io.IOException;
import javax.net.ssl.SSLContext;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A process's observability: its {@link Metrics} and the {@link InfoServer} with its status pages and
 * {@code /metrics}. Attached to a running master, region server or standalone server after start (the
 * servers know nothing of it beyond exposing their dispatcher and statistics).
 */
public final class StatusServer implements AutoCloseable {
  private static final long REFRESH_SECONDS = 5;
  private static final long RATE_WINDOW_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final Metrics metrics;
  private final InfoServer http;
  private final ScheduledExecutorService refresher;

  private StatusServer(Metrics metrics, String host, int port, boolean anyPortIfBusy,
      Map<String, Function<Map<String, String>, InfoServer.Response>> pages, SSLContext https) throws IOException {
    this.metrics = metrics;
    Map<String, Function<Map<String, String>, InfoServer.Response>> routes = new LinkedHashMap<>();
    pages.forEach((path, page) -> routes.put(path, q -> {
      metrics.refresh();
      return page.apply(q);
    }));
    routes.put("/metrics", q -> new InfoServer.Response(200, Metrics.CONTENT_TYPE, metrics.scrape()));
    InfoServer server = null;
    try {
      server = new InfoServer(host, port, anyPortIfBusy, routes, https);
    } finally {
      if (server == null) {
        metrics.close();
      }
    }
    http = server;
    // Rates are differences of counts over time: sample them even when nobody scrapes or looks.
    refresher = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "basalt-metrics-refresh");
      t.setDaemon(true);
      return t;
    });
    refresher.scheduleWithFixedDelay(metrics::refresh, REFRESH_SECONDS, REFRESH_SECONDS, TimeUnit.SECONDS);
  }

  /** Standalone: one port with the cluster pages, the region server page and every metric of the process. */
  public static StatusServer standalone(MasterNode masterNode, RegionServerNode rs, String host, int port)
      throws IOException {
    Metrics metrics = new Metrics();
    masterNode.dispatcher().listen(new RpcMetrics(metrics.registry(), "master"));
    rs.dispatcher().listen(new RpcMetrics(metrics.registry(), "regionserver"));
    RegionServerMetrics rsMetrics = RegionServerMetrics.bind(metrics, rs.regionServer(), rs.storageEngine());
    RegionRates rates = new RegionRates(RATE_WINDOW_NANOS);
    metrics.beforeScrape(() -> rates.update(rsMetrics.regionStats(), System.nanoTime()));
    MasterMetrics.bind(metrics, masterNode::master);
    List<Html.Link> nav = List.of(new Html.Link("Cluster", "/"), new Html.Link("Region server", "/rs"),
        new Html.Link("Metrics", "/metrics"));
    ClusterPages cluster = new ClusterPages(new MasterClusterStatus(masterNode::master, rates::latest, s -> "/rs"), nav);
    RegionServerPage rsPage = new RegionServerPage(rs.regionServer(), rsMetrics, rates, metrics.registry(), nav);
    return new StatusServer(metrics, host, port, false,
        Map.of("/", cluster::overview, "/table", cluster::table, "/rs", rsPage::render),
        masterNode.security().httpsContext());
  }

  /** A master process: cluster pages (region sizes and rates unknown until region servers report them). */
  public static StatusServer master(MasterNode node, String host, int port) throws IOException {
    Metrics metrics = new Metrics();
    node.dispatcher().listen(new RpcMetrics(metrics.registry(), "master"));
    MasterMetrics.bind(metrics, node::master);
    List<Html.Link> nav = List.of(new Html.Link("Cluster", "/"), new Html.Link("Metrics", "/metrics"));
    ClusterPages cluster = new ClusterPages(new MasterClusterStatus(node::master, RegionLoadSource.NONE, s -> null), nav);
    return new StatusServer(metrics, host, port, true, Map.of("/", cluster::overview, "/table", cluster::table),
        node.security().httpsContext());
  }

  /** A region server process: its page and metrics. */
  public static StatusServer regionServer(RegionServerNode node, String host, int port) throws IOException {
    Metrics metrics = new Metrics();
    node.dispatcher().listen(new RpcMetrics(metrics.registry(), "regionserver"));
    RegionServerMetrics rsMetrics = RegionServerMetrics.bind(metrics, node.regionServer(), node.storageEngine());
    RegionRates rates = new RegionRates(RATE_WINDOW_NANOS);
    metrics.beforeScrape(() -> rates.update(rsMetrics.regionStats(), System.nanoTime()));
    List<Html.Link> nav = List.of(new Html.Link("Region server", "/"), new Html.Link("Metrics", "/metrics"));
    RegionServerPage page = new RegionServerPage(node.regionServer(), rsMetrics, rates, metrics.registry(), nav);
    return new StatusServer(metrics, host, port, true, Map.of("/", page::render, "/rs", page::render),
        node.security().httpsContext());
  }

  public InetSocketAddress address() {
    return http.address();
  }

  public Metrics metrics() {
    return metrics;
  }

  @Override
  public void close() {
    refresher.shutdownNow();
    http.close();
    metrics.close();
  }
}
