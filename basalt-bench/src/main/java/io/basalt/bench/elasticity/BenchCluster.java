package io.basalt.bench.elasticity;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.SecurityKeys;
import io.basalt.server.master.MasterConfig;
import io.basalt.server.master.MasterNode;
import io.basalt.server.master.OperationHistory;
import io.basalt.server.security.ServerSecurity;
import io.basalt.server.zk.EmbeddedZooKeeper;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/**
 * The cluster under measurement, all on 127.0.0.1: ZooKeeper and the master in this JVM (so the master's
 * operation history, with each split's and move's step times, can be read directly), and each region
 * server a child JVM with its own heap, CPU accounting, port and data directory. Stops only what it started.
 */
final class BenchCluster implements AutoCloseable {
  /** The flags a region server needs on JDK 17 (as bin/basalt gives them). */
  private static final List<String> SERVER_JVM_FLAGS = List.of("-XX:+UseZGC", "--add-opens",
      "java.base/java.nio=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
      "-Dio.netty.tryReflectionSetAccessible=true", "-Dorg.slf4j.simpleLogger.showDateTime=true",
      "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS");

  /** One region server child process. */
  record Server(String name, int port, Path dataDir, Path log, Process process, long startedAtMillis) {}

  private final Settings settings;
  private final Path dir;
  private final Path profileDir;
  private final EmbeddedZooKeeper zookeeper;
  private final MasterNode master;
  private final List<Server> servers = new ArrayList<>();

  /** {@code profileDir}: when not null, each region server runs Java Flight Recorder, dumped there before it stops. */
  BenchCluster(Settings settings, Path dir, Path profileDir) throws IOException, InterruptedException {
    this.settings = settings;
    this.dir = dir;
    this.profileDir = profileDir;
    Files.createDirectories(dir);
    zookeeper = new EmbeddedZooKeeper(new InetSocketAddress("127.0.0.1", freePort()), dir.resolve("zookeeper"));
    MasterNode m = null;
    try {
      // The balancer's schedule is an hour: it runs only when asked and when a server joins. One copy per
      // region: this bench measures the split and move of a single copy.
      m = new MasterNode(MasterConfig.defaults(zookeeper.connectString()).withAddress("127.0.0.1", freePort())
          .withBalancer(3_600_000, settings.balancePauseMillis()).withReplicationFactor(1),
          () -> System.err.println("master lost its leadership"),
          // The region servers are other processes: they and this master share the cluster's secret file.
          ServerSecurity.from(BasaltConfig.of(Map.of(SecurityKeys.CLUSTER_SECRET_FILE.name(), secretFile().toString())),
              null));
      if (!m.awaitActive(60, TimeUnit.SECONDS)) {
        throw new IOException("the master did not become active in 60 s");
      }
    } catch (IOException | RuntimeException e) {
      if (m != null) {
        m.close();
      }
      zookeeper.close();
      throw e;
    }
    master = m;
  }

  private Path secretFile() {
    return dir.resolve("cluster.secret");
  }

  /** Starts one more region server and waits until it listens (registration is for the caller to await). */
  Server addRegionServer() throws IOException, InterruptedException {
    int port = freePort();
    String name = "regionserver-" + servers.size();
    Path data = dir.resolve(name);
    Path log = dir.resolve(name + ".log");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xms" + settings.serverHeapMb() + "m");
    cmd.add("-Xmx" + settings.serverHeapMb() + "m");
    cmd.addAll(SERVER_JVM_FLAGS);
    cmd.addAll(settings.serverJvmFlags());
    if (profileDir != null) {
      cmd.add("-XX:StartFlightRecording=name=bench,settings=profile");
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(ChildMain.class.getName());
    cmd.add("io.basalt.server.launch.RegionServerMain");
    // Automatic splits are off (thresholds far above any region here): the benchmark splits on purpose.
    cmd.addAll(List.of("--zookeeper", zookeeper.connectString(), "--port", Integer.toString(port), "--data-dir",
        data.toString(), "--cache-mb", Integer.toString(settings.serverCacheMb()), "--split-size-mb", "100000000",
        "--split-cells", "2000000000", "--" + SecurityKeys.CLUSTER_SECRET_FILE.name(), secretFile().toString()));
    long started = System.currentTimeMillis();
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    Server s = new Server(name, port, data, log, p, started);
    servers.add(s);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!accepts(port)) {
      if (!p.isAlive() || System.nanoTime() > deadline) {
        throw new IOException(name + " did not start listening on " + port + "; see " + log);
      }
      Thread.sleep(50);
    }
    return s;
  }

  /** Waits until the active master counts {@code n} live region servers. */
  void awaitLiveServers(int n) throws InterruptedException, IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (master.master().servers().live().size() < n) {
      if (System.nanoTime() > deadline) {
        throw new IOException("fewer than " + n + " region servers registered after 120 s");
      }
      Thread.sleep(50);
    }
  }

  /** The region server listening on {@code port}. */
  Server serverAt(int port) {
    return servers.stream().filter(s -> s.port() == port).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no region server on port " + port));
  }

  /** True when the balancer would move nothing now (region counts even, nothing in transition). */
  boolean balanced() {
    return master.master().balancePlan().isEmpty();
  }

  OperationHistory history() {
    return master.master().history();
  }

  List<Server> servers() {
    return servers;
  }

  /** A client configuration for this cluster (ZooKeeper registry, as an HBase application would use). */
  Configuration clientConfiguration() {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zookeeper.address().getPort());
    return conf;
  }

  /** Bytes under a region server's data directory (what it holds on disk). */
  static long diskBytes(Path p) throws IOException {
    if (!Files.exists(p)) {
      return 0;
    }
    try (var files = Files.walk(p)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static boolean accepts(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Copies a server's flight recording to the profile directory (a stopping server halts without dumping it). */
  private void dumpRecording(Server s) {
    Path file = profileDir.resolve(s.name() + ".jfr").toAbsolutePath();
    try {
      Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
          Long.toString(s.process().pid()), "JFR.dump", "name=bench", "filename=" + file)
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!jcmd.waitFor(60, TimeUnit.SECONDS)) {
        jcmd.destroyForcibly();
        System.err.println("jcmd did not dump the recording of " + s.name() + " in 60 s");
      }
    } catch (IOException e) {
      System.err.println("could not dump the recording of " + s.name() + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    if (profileDir != null) {
      servers.stream().filter(s -> s.process().isAlive()).forEach(this::dumpRecording);
    }
    for (Server s : servers) {
      // SIGTERM, through the handle: Process.destroy() also closes stdin, on which ChildMain halts at once.
      s.process().toHandle().destroy();
    }
    for (Server s : servers) {
      try {
        if (!s.process().waitFor(30, TimeUnit.SECONDS)) {
          s.process().destroyForcibly();
          s.process().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        s.process().destroyForcibly();
      }
    }
    master.close();
    zookeeper.close();
  }
}
