package io.basalt.gateway.rest;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * The gateway's meters: every request timed by HTTP method, resource kind (row, scanner, schema...) and status
 * code, so bad input (4xx) and cluster trouble (503) show apart; and the open stateful scanners.
 */
final class RestMetrics {
  private final MeterRegistry registry;

  RestMetrics(MeterRegistry registry, IntSupplier openScanners) {
    this.registry = registry;
    Gauge.builder("basalt.rest.scanners.open", openScanners::getAsInt)
        .description("Scanners created by REST clients and not deleted or expired yet").register(registry);
  }

  void record(String method, String resource, int status, long nanos) {
    Timer.builder("basalt.rest.requests").description("REST requests by method, resource and status")
        .tag("method", method).tag("resource", resource).tag("status", Integer.toString(status)).register(registry)
        .record(nanos, TimeUnit.NANOSECONDS);
  }
}
