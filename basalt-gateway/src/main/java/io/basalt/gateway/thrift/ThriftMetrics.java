package io.basalt.gateway.thrift;

import io.basalt.gateway.thrift.generated.Hbase;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * The gateway's meters: every Thrift call timed by method and outcome ({@code ok}, or the Thrift exception's
 * name: IOError, IllegalArgument, AlreadyExists), open scanners, and connections refused for bad input.
 * Timing wraps the handler (as HBase's HbaseHandlerMetricsProxy does), so no call can be missed.
 */
public final class ThriftMetrics {
  private final MeterRegistry registry;
  private final Counter badInput;

  public ThriftMetrics(MeterRegistry registry, IntSupplier openScanners) {
    this.registry = registry;
    Gauge.builder("basalt.thrift.scanners.open", openScanners::getAsInt)
        .description("Scanners opened by Thrift clients and not closed or expired yet").register(registry);
    this.badInput = Counter.builder("basalt.thrift.connections.dropped")
        .description("Connections ended by malformed input (bad frame, bad message)").register(registry);
  }

  void droppedConnection() {
    badInput.increment();
  }

  /** The handler with every call timed. */
  public Hbase.Iface timed(Hbase.Iface handler) {
    InvocationHandler timing = (proxy, method, args) -> {
      long start = System.nanoTime();
      String outcome = "ok";
      try {
        return method.invoke(handler, args);
      } catch (InvocationTargetException e) {
        outcome = e.getCause().getClass().getSimpleName();
        throw e.getCause();
      } finally {
        Timer.builder("basalt.thrift.calls").description("Thrift 1 calls by method and outcome")
            .tag("method", method.getName()).tag("outcome", outcome).register(registry)
            .record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
      }
    };
    return (Hbase.Iface) Proxy.newProxyInstance(Hbase.Iface.class.getClassLoader(), new Class<?>[] {Hbase.Iface.class},
        timing);
  }
}
