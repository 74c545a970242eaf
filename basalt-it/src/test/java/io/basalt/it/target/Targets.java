package io.basalt.it.target;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The targets of one test run: each is started once, on first demand (in the background, so HBase's ~15-30 s
 * start overlaps with tests already running on Basalt), shared by every test class in the JVM, and closed when
 * the JUnit run ends (or, failing that, by a shutdown hook). Each has one shared client connection.
 *
 * <p>{@code -Dbasalt.it.targets=basalt} (surefire passes the Maven property through) limits the dual-target
 * tests to Basalt for a quick loop.
 */
public final class Targets {
  public static final String BASALT = "basalt";
  public static final String HBASE = "hbase";

  private static final long START_TIMEOUT_SECONDS = 240;
  private static final Map<String, CompletableFuture<ClusterTarget>> STARTED = new ConcurrentHashMap<>();
  private static final Map<String, Connection> CONNECTIONS = new ConcurrentHashMap<>();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(Targets::closeAll, "targets-shutdown"));
  }

  private Targets() {}

  /** The targets this run uses, in the order their test invocations run. */
  public static List<String> enabled() {
    return Arrays.stream(System.getProperty("basalt.it.targets", BASALT + "," + HBASE).split(","))
        .map(String::trim).filter(s -> !s.isEmpty()).distinct().toList();
  }

  /** Starts the target in the background if it is not started or starting yet. */
  public static void prestart(String name) {
    STARTED.computeIfAbsent(name, n -> {
      CompletableFuture<ClusterTarget> f = new CompletableFuture<>();
      Thread t = new Thread(() -> {
        try {
          f.complete(create(n));
        } catch (Throwable e) {
          f.completeExceptionally(e);
        }
      }, "start-" + n);
      t.setDaemon(true);
      t.start();
      return f;
    });
  }

  private static ClusterTarget create(String name) throws IOException, InterruptedException {
    long t0 = System.nanoTime();
    ClusterTarget target = switch (name) {
      case BASALT -> BasaltTarget.start();
      case HBASE -> HBaseTarget.start();
      default -> throw new IllegalArgumentException("unknown target " + name + " (basalt.it.targets: basalt, hbase)");
    };
    System.out.printf("[targets] %s ready in %.1f s%n", target, (System.nanoTime() - t0) / 1e9);
    return target;
  }

  /** The running target, starting it (and waiting for it) if need be. A failed start fails every later call. */
  public static ClusterTarget get(String name) {
    prestart(name);
    try {
      return STARTED.get(name).get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting " + name, e);
    } catch (ExecutionException | CompletionException e) {
      throw new IllegalStateException("target " + name + " failed to start: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("target " + name + " did not start within " + START_TIMEOUT_SECONDS + " s", e);
    }
  }

  public static BasaltTarget basalt() {
    return (BasaltTarget) get(BASALT);
  }

  /** The target's shared connection (ZooKeeper registry). Tests must not close it. */
  public static Connection connection(String name) {
    ClusterTarget target = get(name);
    return CONNECTIONS.computeIfAbsent(name, n -> {
      try {
        return ConnectionFactory.createConnection(target.clientConfiguration());
      } catch (IOException e) {
        throw new IllegalStateException("cannot connect to " + target, e);
      }
    });
  }

  /** Closes every connection and target started so far. */
  public static synchronized void closeAll() {
    CONNECTIONS.values().forEach(c -> {
      try {
        c.close();
      } catch (IOException | RuntimeException ignored) {
        // closing anyway
      }
    });
    CONNECTIONS.clear();
    for (CompletableFuture<ClusterTarget> f : STARTED.values()) {
      // A start still under way closes what it produces; a child JVM it leaves behind halts with this JVM anyway.
      f.thenAccept(ClusterTarget::close);
    }
    STARTED.clear();
  }
}
