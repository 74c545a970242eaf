package io.basalt.bench.replication;

import io.basalt.bench.elasticity.ChildMain;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * The measured cluster, every part a child JVM on 127.0.0.1: one ZooKeeper, one master that gives every new
 * region {@code factor} copies, and region servers, each with its own data directory, log and block of
 * replication ports ({@code FIRST-LAST}, disjoint between servers). Every child runs under {@link ChildMain},
 * so it halts when this JVM is gone, however it ended; {@link #close()} stops exactly the processes started
 * here, by their handles (PIDs), region servers first.
 */
final class ResourceCluster implements AutoCloseable {
  /** The flags a Basalt server needs on JDK 17 (as bin/basalt gives them). */
  private static final List<String> SERVER_JVM_FLAGS = List.of("--add-opens", "java.base/java.nio=ALL-UNNAMED",
      "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED", "-Dio.netty.tryReflectionSetAccessible=true",
      "-Dorg.slf4j.simpleLogger.showDateTime=true", "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS");

  /** One child process. {@code firstReplicationPort..lastReplicationPort}: region servers only (else 0). */
  record Child(String name, int port, Path dataDir, Path log, Process process, int firstReplicationPort,
      int lastReplicationPort) {
    long pid() {
      return process.pid();
    }
  }

  private final Settings settings;
  private final Path dir;
  private final List<Child> children = new ArrayList<>();
  private final List<Child> regionServers = new ArrayList<>();
  private final Thread shutdownHook = new Thread(this::killAll, "replication-resources-cleanup");
  private int zookeeperPort;

  ResourceCluster(Settings settings, Path dir) {
    this.settings = settings;
    this.dir = dir;
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /** Starts ZooKeeper, the master and the region servers, and waits until the master counts them all live. */
  void start() throws IOException, InterruptedException {
    Files.createDirectories(dir);
    zookeeperPort = freePort();
    start("zookeeper", zookeeperPort, List.of("-Xmx" + settings.zookeeperHeapMb() + "m", "-XX:+UseZGC"),
        "io.basalt.server.launch.ZooKeeperMain",
        List.of("--port", Integer.toString(zookeeperPort), "--data-dir", dir.resolve("zookeeper").toString()), 0, 0);
    int masterPort = freePort();
    start("master", masterPort, List.of("-Xmx" + settings.masterHeapMb() + "m", "-XX:+UseZGC"),
        "io.basalt.server.launch.MasterMain",
        List.of("--zookeeper", "127.0.0.1:" + zookeeperPort, "--port", Integer.toString(masterPort), "--info-port",
            "-1", "--replication-factor", Integer.toString(settings.replicationFactor()),
            // The balancer leaves replicated regions alone; an hour keeps it out of the idle windows anyway.
            "--balancer-period-ms", "3600000"), 0, 0);
    for (int i = 0; i < settings.regionServers(); i++) {
      int port = freePort();
      String name = "regionserver-" + i;
      int first = settings.replicationPortBase() + i * settings.replicationPortsPerServer();
      int last = first + settings.replicationPortsPerServer() - 1;
      List<String> jvm = new ArrayList<>(List.of("-Xmx" + settings.serverHeapMb() + "m", "-XX:+UseZGC"));
      jvm.addAll(settings.serverJvmFlags());
      // Automatic splits off (thresholds far above anything written here); the web UI on a free port, as a
      // deployed server has one.
      start(name, port, jvm, "io.basalt.server.launch.RegionServerMain",
          List.of("--zookeeper", "127.0.0.1:" + zookeeperPort, "--port", Integer.toString(port), "--data-dir",
              dir.resolve(name).toString(), "--cache-mb", Integer.toString(settings.serverCacheMb()),
              "--info-port", Integer.toString(freePort()), "--replication-ports", first + "-" + last,
              "--split-size-mb", "100000000", "--split-cells", "2000000000"), first, last);
    }
    awaitLiveRegionServers();
  }

  private void start(String name, int port, List<String> jvm, String mainClass, List<String> args, int firstRepl,
      int lastRepl) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvm);
    cmd.addAll(SERVER_JVM_FLAGS);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(ChildMain.class.getName());
    cmd.add(mainClass);
    cmd.addAll(args);
    Path log = dir.resolve(name + ".log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    Child c = new Child(name, port, name.startsWith("regionserver") ? dir.resolve(name) : null, log, p, firstRepl,
        lastRepl);
    children.add(c);
    if (c.dataDir() != null) {
      regionServers.add(c);
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!accepts(port)) {
      if (!p.isAlive() || System.nanoTime() > deadline) {
        throw new IOException(name + " did not start listening on " + port + "; see " + log);
      }
      Thread.sleep(50);
    }
  }

  private void awaitLiveRegionServers() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    try (Connection conn = ConnectionFactory.createConnection(clientConfiguration()); Admin admin = conn.getAdmin()) {
      while (true) {
        try {
          if (admin.getClusterMetrics().getLiveServerMetrics().size() >= regionServers.size()) {
            return;
          }
        } catch (IOException e) {
          // the master is not answering yet
        }
        if (System.nanoTime() > deadline) {
          throw new IOException("fewer than " + regionServers.size() + " live region servers after 120 s");
        }
        Thread.sleep(200);
      }
    }
  }

  List<Child> regionServers() {
    return regionServers;
  }

  List<Child> children() {
    return children;
  }

  /**
   * A client of this cluster that waits as long as creating many replicated regions takes: the master creates a
   * table's regions one after another within the create call.
   */
  Configuration clientConfiguration() {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zookeeperPort);
    int createMillis = (int) Math.min(Integer.MAX_VALUE, TimeUnit.SECONDS.toMillis(settings.createTimeoutSeconds()));
    conf.setInt("hbase.rpc.timeout", createMillis);
    conf.setInt("hbase.client.operation.timeout", createMillis);
    conf.setLong("hbase.client.sync.wait.timeout.msec", createMillis);
    conf.setInt("hbase.client.retries.number", 30);
    conf.setInt("hbase.client.pause", 200);
    return conf;
  }

  /** The number of region members on a server's disk: one directory each under DATA/regions. */
  static int membersOnDisk(Child server) throws IOException {
    Path regions = server.dataDir().resolve("regions");
    if (!Files.isDirectory(regions)) {
      return 0;
    }
    try (var dirs = Files.list(regions)) {
      return (int) dirs.filter(Files::isDirectory).count();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
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

  /** Kills what is still running right away (the JVM is exiting: no time for clean stops). */
  private void killAll() {
    for (Child c : children) {
      if (c.process().isAlive()) {
        c.process().destroyForcibly();
      }
    }
  }

  /**
   * Stops the children, region servers first, then the master, then ZooKeeper: SIGTERM to each PID (members
   * close cleanly), SIGKILL after {@code stopSeconds}. Only these processes are signalled.
   */
  @Override
  public void close() {
    List<Child> order = new ArrayList<>(regionServers);
    children.stream().filter(c -> c.dataDir() == null && c.name().equals("master")).forEach(order::add);
    children.stream().filter(c -> !order.contains(c)).forEach(order::add);
    stop(order.subList(0, regionServers.size()));
    stop(order.subList(regionServers.size(), order.size()));
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException exiting) {
      // the hook is running or has run
    }
  }

  private void stop(List<Child> group) {
    for (Child c : group) {
      if (c.process().isAlive()) {
        c.process().toHandle().destroy(); // SIGTERM only: Process.destroy() also closes stdin, and ChildMain halts
      }
    }
    for (Child c : group) {
      try {
        if (!c.process().waitFor(settings.stopSeconds(), TimeUnit.SECONDS)) {
          System.err.println(c.name() + " (pid " + c.pid() + ") did not stop in " + settings.stopSeconds()
              + " s after SIGTERM: killing it");
          c.process().destroyForcibly();
          c.process().waitFor(30, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        c.process().destroyForcibly();
      }
    }
  }
}
