package io.basalt.it.cluster;

import io.basalt.it.target.Processes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/**
 * A Basalt cluster of real processes on 127.0.0.1: one ZooKeeper, masters and region servers, each a child
 * JVM ({@link Processes#startJava}, so none outlives the test run), each region server with its own data
 * directory and port that survive its restarts. Stops only the processes it started.
 */
public final class LocalCluster implements AutoCloseable {
  /** Short sessions so failures are noticed in seconds, as a test needs (not so short that a busy CI box expires them). */
  public static final int SESSION_TIMEOUT_MILLIS = 6_000;

  private final Path dir;
  private final String classpath = System.getProperty("java.class.path");
  private final int zookeeperPort;
  private final Process zookeeper;
  private final List<Node> masters = new ArrayList<>();
  private final List<Node> regionServers = new ArrayList<>();
  private final List<String> regionServerArgs;
  private final List<String> masterArgs;
  /** First replication port of this cluster's region servers (each gets its own block, below the ephemeral range). */
  private final int replicationBase = 20_000 + java.util.concurrent.ThreadLocalRandom.current().nextInt(250) * 40;
  static final int REPLICATION_PORTS_PER_SERVER = 40;

  /** One child process and the fixed port and directory it uses across restarts. */
  public static final class Node {
    final String name;
    final int port;
    final Path dataDir;
    final List<String> args;
    final String mainClass;
    /** JVM flags for the next start (e.g. a crash point); cleared by {@link #clearJvmFlags()}. */
    final List<String> jvmFlags = new ArrayList<>();
    Process process;

    Node(String name, int port, Path dataDir, String mainClass, List<String> args) {
      this.name = name;
      this.port = port;
      this.dataDir = dataDir;
      this.mainClass = mainClass;
      this.args = args;
    }

    /** Makes the process halt at a protocol step ({@code -Dbasalt.crash.at}) from its next start on. */
    public Node crashAt(String point) {
      jvmFlags.add("-Dbasalt.crash.at=" + point);
      return this;
    }

    public void clearJvmFlags() {
      jvmFlags.clear();
    }

    /** Waits for the process to exit by itself (a crash point), true if it did. */
    public boolean awaitExit(long seconds) throws InterruptedException {
      return process.waitFor(seconds, TimeUnit.SECONDS);
    }

    public int port() {
      return port;
    }

    public long pid() {
      return process.pid();
    }

    public boolean alive() {
      return process != null && process.isAlive();
    }
  }

  public LocalCluster(Path dir, int masters, int regionServers) throws IOException, InterruptedException {
    this(dir, masters, regionServers, List.of());
  }

  /**
   * {@code regionServerArgs} go to every region server (e.g. small split thresholds). One copy per region
   * (the cluster default is 3): these clusters test the protocols of a single copy.
   */
  public LocalCluster(Path dir, int masters, int regionServers, List<String> regionServerArgs)
      throws IOException, InterruptedException {
    this(dir, masters, regionServers, regionServerArgs, List.of("--replication-factor", "1"));
  }

  /** A cluster whose regions have {@code factor} copies (a replica group each) unless a table says otherwise. */
  public static LocalCluster replicated(Path dir, int regionServers, int factor) throws IOException, InterruptedException {
    return new LocalCluster(dir, 1, regionServers, List.of(), List.of("--replication-factor", Integer.toString(factor)));
  }

  /** {@code masterArgs} go to every master (e.g. the replication factor). */
  public LocalCluster(Path dir, int masters, int regionServers, List<String> regionServerArgs, List<String> masterArgs)
      throws IOException, InterruptedException {
    this.dir = dir;
    this.regionServerArgs = regionServerArgs;
    this.masterArgs = masterArgs;
    int[] ports = Processes.freePorts(1);
    zookeeperPort = ports[0];
    zookeeper = Processes.startJava(List.of("-Xmx128m"), classpath, "io.basalt.server.launch.ZooKeeperMain",
        List.of("--port", Integer.toString(zookeeperPort), "--data-dir", dir.resolve("zookeeper").toString()),
        log("zookeeper"));
    awaitPort(zookeeperPort, "zookeeper", log("zookeeper"));
    for (int i = 0; i < masters; i++) {
      addMaster();
    }
    awaitActiveMaster();
    for (int i = 0; i < regionServers; i++) {
      addRegionServer();
    }
    awaitRegisteredRegionServers(regionServers);
  }

  /** Waits until {@code n} region servers are registered in ZooKeeper (the master then assigns to them). */
  public void awaitRegisteredRegionServers(int n) throws InterruptedException {
    awaitZooKeeper(zk -> {
      try {
        return zk.getChildren("/basalt/servers", false).size() >= n;
      } catch (org.apache.zookeeper.KeeperException.NoNodeException e) {
        return false;
      }
    }, n + " registered region servers");
  }

  /**
   * Waits until an active master answers a client (its registry znode alone is not enough: the znode of a
   * master that just stopped may linger until its session ends).
   */
  public void awaitActiveMaster() throws InterruptedException {
    awaitZooKeeper(zk -> zk.exists("/hbase/master", false) != null, "an active master");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try (org.apache.hadoop.hbase.client.Connection c =
               org.apache.hadoop.hbase.client.ConnectionFactory.createConnection(impatientClientConfiguration());
           org.apache.hadoop.hbase.client.Admin admin = c.getAdmin()) {
        admin.getClusterMetrics();
        return;
      } catch (IOException e) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("no master answers after 60 s", e);
        }
        Thread.sleep(200);
      }
    }
  }

  private interface ZooKeeperCheck {
    boolean holds(org.apache.zookeeper.ZooKeeper zk) throws org.apache.zookeeper.KeeperException, InterruptedException;
  }

  private void awaitZooKeeper(ZooKeeperCheck check, String what) throws InterruptedException {
    try (org.apache.zookeeper.ZooKeeper zk = new org.apache.zookeeper.ZooKeeper("127.0.0.1:" + zookeeperPort, 10_000, e -> { })) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (true) {
        try {
          if (check.holds(zk)) {
            return;
          }
        } catch (org.apache.zookeeper.KeeperException e) {
          // not connected yet
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("no " + what + " after 60 s");
        }
        Thread.sleep(100);
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private Path log(String name) {
    return Processes.logDir().resolve("cluster-" + dir.getFileName() + "-" + name + ".log");
  }

  public Node addMaster() throws IOException, InterruptedException {
    return addMaster(List.of());
  }

  public Node addMaster(List<String> jvmFlags) throws IOException, InterruptedException {
    int port = Processes.freePorts(1)[0];
    List<String> args = new ArrayList<>(List.of("--zookeeper", "127.0.0.1:" + zookeeperPort, "--port",
        Integer.toString(port), "--session-timeout-ms", Integer.toString(SESSION_TIMEOUT_MILLIS), "--balance-pause-ms",
        "300"));
    args.addAll(masterArgs);
    Node n = new Node("master-" + masters.size(), port, null, "io.basalt.server.launch.MasterMain", args);
    n.jvmFlags.addAll(jvmFlags);
    masters.add(n);
    start(n);
    return n;
  }

  public Node addRegionServer() throws IOException, InterruptedException {
    int port = Processes.freePorts(1)[0];
    String name = "regionserver-" + regionServers.size();
    Path data = dir.resolve(name);
    int firstReplicationPort = replicationBase + regionServers.size() * REPLICATION_PORTS_PER_SERVER;
    List<String> args = new ArrayList<>(List.of("--zookeeper", "127.0.0.1:" + zookeeperPort, "--port",
        Integer.toString(port), "--data-dir", data.toString(), "--cache-mb", "32", "--session-timeout-ms",
        Integer.toString(SESSION_TIMEOUT_MILLIS), "--replication-ports",
        firstReplicationPort + "-" + (firstReplicationPort + REPLICATION_PORTS_PER_SERVER - 1)));
    args.addAll(regionServerArgs);
    Node n = new Node(name, port, data, "io.basalt.server.launch.RegionServerMain", args);
    regionServers.add(n);
    start(n);
    return n;
  }

  /** (Re)starts a node on its port and directory and waits until it listens. */
  public void start(Node n) throws IOException, InterruptedException {
    List<String> jvm = new ArrayList<>(List.of("-Xmx256m", "-XX:+UseZGC", "-Dorg.slf4j.simpleLogger.showDateTime=true",
        "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS"));
    jvm.addAll(n.jvmFlags);
    String jeLog = System.getProperty("basalt.je.log.level");
    if (jeLog != null) {
      jvm.add("-Dbasalt.je.log.level=" + jeLog); // JE's elections and syncups in the region servers' logs
    }
    n.process = Processes.startJava(jvm, classpath, n.mainClass, n.args, log(n.name));
    awaitPort(n.port, n.name, log(n.name));
  }

  private static void awaitPort(int port, String name, Path log) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Processes.accepts(port)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(name + " does not listen on " + port + " after 60 s:\n" + Processes.tail(log, 40));
      }
      Thread.sleep(100);
    }
  }

  public List<Node> masters() {
    return masters;
  }

  public List<Node> regionServers() {
    return regionServers;
  }

  /** kill -9: no shutdown hook runs, nothing is flushed beyond what the process already wrote. */
  public void kill(Node n) throws InterruptedException {
    n.process.destroyForcibly();
    n.process.waitFor(30, TimeUnit.SECONDS);
  }

  /** A lost disk: deletes a stopped region server's whole data directory. */
  public void wipe(Node n) {
    if (n.alive()) {
      throw new IllegalStateException(n.name + " is running");
    }
    Processes.deleteRecursively(n.dataDir);
  }

  /** The region server node listening at {@code server}'s port. */
  public Node regionServerAt(org.apache.hadoop.hbase.ServerName server) {
    return regionServers.stream().filter(n -> n.port == server.getPort()).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no region server of this cluster at " + server));
  }

  /** SIGTERM: a clean stop. */
  public void stop(Node n) throws InterruptedException {
    n.process.destroy();
    if (!n.process.waitFor(60, TimeUnit.SECONDS)) {
      n.process.destroyForcibly();
      n.process.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** SIGSTOP or SIGCONT to a child this cluster started. */
  public void signal(Node n, String signal) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(n.pid())).inheritIO().start();
    if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
      throw new IOException("kill -" + signal + " " + n.pid() + " failed");
    }
  }

  public String logTail(Node n) {
    return Processes.tail(log(n.name), 60);
  }

  public Configuration clientConfiguration() {
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", "127.0.0.1");
    conf.setInt("hbase.zookeeper.property.clientPort", zookeeperPort);
    conf.setInt("hbase.client.retries.number", 30);
    conf.setInt("hbase.client.pause", 100);
    conf.setInt("hbase.rpc.timeout", 30_000);
    conf.setInt("hbase.client.operation.timeout", 120_000);
    return conf;
  }

  /** A client that gives up quickly: for the call that makes a process crash on purpose. */
  public Configuration impatientClientConfiguration() {
    Configuration conf = clientConfiguration();
    conf.setInt("hbase.client.retries.number", 1);
    conf.setInt("hbase.rpc.timeout", 20_000);
    conf.setInt("hbase.client.operation.timeout", 20_000);
    return conf;
  }

  @Override
  public void close() {
    List<Node> all = new ArrayList<>(regionServers);
    all.addAll(masters);
    for (Node n : all) {
      if (n.alive()) {
        Processes.stop(n.process, 15_000);
      }
    }
    Processes.stop(zookeeper, 5_000);
    if (Files.exists(dir)) {
      Processes.deleteRecursively(dir);
    }
  }
}
