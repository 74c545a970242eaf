package io.basalt.server.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The meters of one process, in Prometheus's text format on {@code /metrics}. One instance per process,
 * passed to whatever registers meters (no static registry). Figures that are cheaper to read in one go
 * (region and engine statistics) are refreshed by {@link #beforeScrape} hooks right before each scrape.
 */
public final class Metrics implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Metrics.class);

  /** Prometheus text exposition format 0.0.4, what {@link #scrape()} returns. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final List<Runnable> refreshers = new CopyOnWriteArrayList<>();
  private final JvmGcMetrics gc = new JvmGcMetrics();

  /** A registry with the JVM's meters: memory pools, GC pauses, threads, class loading, CPU, uptime, files. */
  public Metrics() {
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    new FileDescriptorMetrics().bindTo(registry);
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** Runs {@code refresh} before every scrape (and before status pages read meters). */
  public void beforeScrape(Runnable refresh) {
    refreshers.add(refresh);
  }

  /** Brings refreshed meters up to date. */
  public synchronized void refresh() {
    for (Runnable r : refreshers) {
      try {
        r.run();
      } catch (RuntimeException e) {
        LOG.warn("refreshing metrics failed", e);
      }
    }
  }

  /** Every meter in Prometheus's text format. */
  public String scrape() {
    refresh();
    return registry.scrape(CONTENT_TYPE);
  }

  @Override
  public void close() {
    gc.close();
    registry.close();
  }
}
