package io.basalt.server.metrics;

import io.basalt.server.rpc.CallListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code basalt_rpc_calls_seconds{role, service, method, outcome}}: count, total time and a latency histogram
 * of every RPC method a process runs ({@code Get}, {@code Multi}, {@code Scan}, {@code CreateTable}, ...).
 * Fixed buckets from 100 µs to 10 s keep the series count small and comparable across processes.
 */
public final class RpcMetrics implements CallListener {
  static final Duration[] BUCKETS = {Duration.ofNanos(100_000), Duration.ofNanos(250_000), Duration.ofNanos(500_000),
      Duration.ofMillis(1), Duration.ofNanos(2_500_000), Duration.ofMillis(5), Duration.ofMillis(10),
      Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
      Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2_500), Duration.ofSeconds(5),
      Duration.ofSeconds(10)};

  private final MeterRegistry registry;
  private final String role;
  private final Map<String, Timer> timers = new ConcurrentHashMap<>();

  /** {@code role} tells the processes' parts apart in one registry: master or regionserver. */
  public RpcMetrics(MeterRegistry registry, String role) {
    this.registry = registry;
    this.role = role;
  }

  @Override
  public void called(String service, String method, long nanos, boolean failed) {
    timer(service, method, failed).record(nanos, TimeUnit.NANOSECONDS);
  }

  private Timer timer(String service, String method, boolean failed) {
    String key = service + '/' + method + '/' + failed;
    Timer t = timers.get(key);
    if (t == null) {
      t = timers.computeIfAbsent(key, k -> Timer.builder("basalt.rpc.calls")
          .description("RPC calls run, by method, with their run time")
          .tags("role", role, "service", service, "method", method, "outcome", failed ? "error" : "ok")
          .serviceLevelObjectives(BUCKETS)
          .register(registry));
    }
    return t;
  }
}
