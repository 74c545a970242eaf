package io.basalt.it.cluster;

import io.basalt.it.target.Processes;
import io.basalt.server.config.StorageKeys;
import io.basalt.storage.testing.FreePorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/**
 * A Basalt cluster of real processes on 127.0.0.1: one ZooKeeper, masters and region servers, each a child
 * JVM ({@link Processes#startJava}, so none outlives the test run), each region server with its own data
 * directory and port that survive its restarts. Stops only the processes it started.
 *
 * <p>{@link #inNamespaces} runs each region server in a network namespace of its own instead (so that a test can
 * cut it off), with ZooKeeper and the master on the namespaces' bridge address.
 */
public final class LocalCluster implements AutoCloseable {
  /** Short sessions so failures are noticed in seconds, as a test needs (not so short that a busy CI box expires them). */
  public static final int SESSION_TIMEOUT_MILLIS = 6_000;

  private static final String WARM_UP_FLAG = "--" + StorageKeys.WARMUP_ROUNDS.name();

  /**
   * Region server arguments of a cluster whose servers warm their region open path before registering, as by
   * default in production. Other test clusters skip it (1-5 s of each server start, most of a cluster's start-up on
   * two cores); tests that measure how long writers wait through a move or failover need it.
   */
  public static final List<String> WARMED_UP =
      List.of(WARM_UP_FLAG, StorageKeys.WARMUP_ROUNDS.defaultValue().toString());

  private final Path dir;
  /** Null: everything on 127.0.0.1. Otherwise region server i runs in namespace i. */
  private final NetNamespaces net;
  /** Where ZooKeeper and the masters listen, and clients connect. */
  private final String host;
  private final String classpath = System.getProperty("java.class.path");
  private final int zookeeperPort;
  private final Process zookeeper;
  private final List<Node> masters = new ArrayList<>();
  private final List<Node> regionServers = new ArrayList<>();
  private final List<String> regionServerArgs;
  /** Where the servers keep their own znodes and HBase's (the masters' arguments say; give servers the same). */
  private final String basaltRoot;
  private final String znodeParent;
  private final List<String> masterArgs;
  /** Replication ports of each region server (a block of its own, kept across its restarts). */
  static final int REPLICATION_PORTS_PER_SERVER = 40;

  /** One child process and the fixed port and directory it uses across restarts. */
  public static final class Node {
    final String name;
    final String host;
    final int port;
    /** What runs java for it: nothing, or {@code ip netns exec NS}. */
    final List<String> launcher;
    final Path dataDir;
    final List<String> args;
    final String mainClass;
    /** JVM flags for the next start (e.g. a crash point); cleared by {@link #clearJvmFlags()}. */
    final List<String> jvmFlags = new ArrayList<>();
    Process process;
    /** A region server's status pages and /metrics (0 for other processes). */
    int infoPort;

    Node(String name, String host, int port, List<String> launcher, Path dataDir, String mainClass, List<String> args) {
      this.name = name;
      this.host = host;
      this.port = port;
      this.launcher = launcher;
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

    /** The value its launcher was given for {@code flag} (e.g. {@code --replication-ports}), or null. */
    public String arg(String flag) {
      return argOr(args, flag, null);
    }

    public int port() {
      return port;
    }

    public String host() {
      return host;
    }

    public String name() {
      return name;
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
    return replicated(dir, regionServers, factor, List.of());
  }

  /** The same with {@code regionServerArgs} for every region server (e.g. {@link #WARMED_UP}). */
  public static LocalCluster replicated(Path dir, int regionServers, int factor, List<String> regionServerArgs)
      throws IOException, InterruptedException {
    return new LocalCluster(dir, 1, regionServers, regionServerArgs,
        List.of("--replication-factor", Integer.toString(factor)));
  }

  /** {@code masterArgs} go to every master (e.g. the replication factor). */
  public LocalCluster(Path dir, int masters, int regionServers, List<String> regionServerArgs, List<String> masterArgs)
      throws IOException, InterruptedException {
    this(dir, null, masters, regionServers, regionServerArgs, masterArgs);
  }

  /**
   * One region server in each of {@code net}'s namespaces, bound to and advertising the namespace's address;
   * ZooKeeper and one master on the bridge's address (reachable from the namespaces and from this JVM); regions
   * get {@code factor} copies; {@code regionServerArgs} go to every region server. The caller closes {@code net}
   * after the cluster.
   */
  public static LocalCluster inNamespaces(Path dir, NetNamespaces net, int factor, List<String> regionServerArgs)
      throws IOException, InterruptedException {
    return new LocalCluster(dir, net, 1, net.size(), regionServerArgs,
        List.of("--replication-factor", Integer.toString(factor)));
  }

  private LocalCluster(Path dir, NetNamespaces net, int masters, int regionServers, List<String> regionServerArgs,
      List<String> masterArgs) throws IOException, InterruptedException {
    this.dir = dir;
    this.net = net;
    this.host = net == null ? "127.0.0.1" : net.bridgeAddress();
    this.regionServerArgs = regionServerArgs.contains(WARM_UP_FLAG) ? regionServerArgs
        : Stream.concat(Stream.of(WARM_UP_FLAG, "0"), regionServerArgs.stream()).toList();
    this.masterArgs = masterArgs;
    this.basaltRoot = argOr(masterArgs, "--basalt.zookeeper.root", "/basalt");
    this.znodeParent = argOr(masterArgs, "--zookeeper.znode.parent", "/hbase");
    int[] ports = FreePorts.take(1);
    zookeeperPort = ports[0];
    zookeeper = Processes.startJava(List.of("-Xmx128m"), classpath, "io.basalt.server.launch.ZooKeeperMain",
        List.of("--host", host, "--port", Integer.toString(zookeeperPort), "--data-dir", dir.resolve("zookeeper").toString()),
        log("zookeeper"));
    awaitPort(host, zookeeperPort, "zookeeper", log("zookeeper"));
    for (int i = 0; i < masters; i++) {
      addMaster();
    }
    awaitActiveMaster();
    // Launched together, then awaited: each JVM's start and warm-up overlap the others'.
    List<Node> starting = new ArrayList<>();
    for (int i = 0; i < regionServers; i++) {
      starting.add(launch(newRegionServer()));
    }
    for (Node n : starting) {
      awaitPort(n.host, n.port, n.name, log(n.name));
    }
    awaitRegisteredRegionServers(regionServers);
  }

  private static String argOr(List<String> args, String flag, String fallback) {
    int i = args.indexOf(flag);
    return i < 0 || i + 1 >= args.size() ? fallback : args.get(i + 1);
  }

  /** Waits until {@code n} region servers are registered in ZooKeeper (the master then assigns to them). */
  public void awaitRegisteredRegionServers(int n) throws InterruptedException {
    awaitZooKeeper(zk -> {
      try {
        return zk.getChildren(basaltRoot + "/servers", false).size() >= n;
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
    awaitZooKeeper(zk -> zk.exists(znodeParent + "/master", false) != null, "an active master");
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
    try (org.apache.zookeeper.ZooKeeper zk = new org.apache.zookeeper.ZooKeeper(host + ":" + zookeeperPort, 10_000, e -> { })) {
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

  /** The cluster's secret, created by its first server: one per test cluster, none in the user's home. */
  public Path secretFile() {
    return dir.resolve("cluster.secret");
  }

  private Path log(String name) {
    return Processes.logDir().resolve("cluster-" + dir.getFileName() + "-" + name + ".log");
  }

  public Node addMaster() throws IOException, InterruptedException {
    return addMaster(List.of());
  }

  public Node addMaster(List<String> jvmFlags) throws IOException, InterruptedException {
    int port = FreePorts.take(1)[0];
    List<String> args = new ArrayList<>(List.of("--zookeeper", host + ":" + zookeeperPort, "--host", host, "--port",
        Integer.toString(port), "--session-timeout-ms", Integer.toString(SESSION_TIMEOUT_MILLIS), "--balance-pause-ms",
        "300", "--basalt.cluster.secret.file", secretFile().toString()));
    args.addAll(masterArgs);
    Node n = new Node("master-" + masters.size(), host, port, List.of(), null, "io.basalt.server.launch.MasterMain", args);
    n.jvmFlags.addAll(jvmFlags);
    masters.add(n);
    start(n);
    return n;
  }

  public Node addRegionServer() throws IOException, InterruptedException {
    Node n = newRegionServer();
    start(n);
    return n;
  }

  private Node newRegionServer() throws IOException {
    int port = FreePorts.take(1)[0];
    int index = regionServers.size();
    if (net != null && index >= net.size()) {
      throw new IllegalStateException("no network namespace left for region server " + index + " (" + net.size() + " made)");
    }
    String name = "regionserver-" + index;
    String rsHost = net == null ? "127.0.0.1" : net.address(index);
    Path data = dir.resolve(name);
    int firstReplicationPort = FreePorts.takeBlock(REPLICATION_PORTS_PER_SERVER);
    int infoPort = FreePorts.take(1)[0];
    List<String> args = new ArrayList<>(List.of("--zookeeper", host + ":" + zookeeperPort, "--host", rsHost, "--port",
        Integer.toString(port), "--data-dir", data.toString(), "--cache-mb", "32", "--session-timeout-ms",
        Integer.toString(SESSION_TIMEOUT_MILLIS), "--replication-ports",
        firstReplicationPort + "-" + (firstReplicationPort + REPLICATION_PORTS_PER_SERVER - 1),
        "--info-port", Integer.toString(infoPort), "--basalt.cluster.secret.file", secretFile().toString()));
    args.addAll(regionServerArgs);
    Node n = new Node(name, rsHost, port, net == null ? List.of() : net.exec(index), data,
        "io.basalt.server.launch.RegionServerMain", args);
    n.infoPort = infoPort;
    regionServers.add(n);
    return n;
  }

  /** (Re)starts a node on its port and directory and waits until it listens. */
  public void start(Node n) throws IOException, InterruptedException {
    launch(n);
    awaitPort(n.host, n.port, n.name, log(n.name));
  }

  private Node launch(Node n) throws IOException {
    List<String> jvm = new ArrayList<>(List.of("-Xmx256m", "-XX:+UseZGC", "-Dorg.slf4j.simpleLogger.showDateTime=true",
        "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS"));
    jvm.addAll(n.jvmFlags);
    String jeLog = System.getProperty("basalt.je.log.level");
    if (jeLog != null) {
      jvm.add("-Dbasalt.je.log.level=" + jeLog); // JE's elections and syncups in the region servers' logs
    }
    n.process = Processes.startJava(n.launcher, jvm, classpath, n.mainClass, n.args, log(n.name));
    return n;
  }

  /**
   * Starts {@code mainClass} in a child JVM next to {@code n}: in its network namespace, if it has one (a client
   * that still reaches a server cut off from the rest). The caller stops it ({@link Processes#stop}).
   */
  public Process startBeside(Node n, String mainClass, List<String> args, String logName) throws IOException {
    return Processes.startJava(n.launcher, List.of("-Xmx128m"), classpath, mainClass, args, log(logName));
  }

  /** The whole log of a node ({@link Node#name()}) or of a process started beside one. */
  public String logOf(String logName) {
    return Processes.tail(log(logName), 100_000);
  }

  private static void awaitPort(String host, int port, String name, Path log) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Processes.accepts(host, port)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(name + " does not listen on " + port + " after 60 s:\n" + Processes.tail(log, 40));
      }
      Thread.sleep(100);
    }
  }

  public List<Node> masters() {
    return masters;
  }

  /** Appends a thread dump of every live master and region server to its log: what a stall was waiting on. */
  public void dumpThreads(String why) {
    List<Node> all = new ArrayList<>(masters);
    all.addAll(regionServers);
    Path jstack = Path.of(System.getProperty("java.home"), "bin", "jstack");
    for (Node n : all) {
      if (!n.alive()) {
        continue;
      }
      try {
        Files.writeString(log(n.name), "=== thread dump: " + why + System.lineSeparator(),
            java.nio.file.StandardOpenOption.APPEND);
        Process p = new ProcessBuilder(jstack.toString(), Long.toString(n.process.pid())).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log(n.name).toFile())).start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      } catch (IOException e) {
        System.err.println("no thread dump of " + n.name + ": " + e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
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

  /** The region server node listening at {@code server}'s address. */
  public Node regionServerAt(org.apache.hadoop.hbase.ServerName server) {
    return regionServers.stream().filter(n -> n.port == server.getPort() && n.host.equals(server.getHostname())).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no region server of this cluster at " + server));
  }

  /**
   * SIGTERM: a clean stop. Sent through the process handle: {@code Process.destroy()} also closes the child's
   * stdin, on which {@link io.basalt.it.target.ChildMain}'s watchdog halts the JVM before its shutdown runs.
   */
  public void stop(Node n) throws InterruptedException {
    n.process.toHandle().destroy();
    if (!n.process.waitFor(60, TimeUnit.SECONDS)) {
      n.process.destroyForcibly();
      n.process.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** Cuts a region server's namespace off from the network: the process runs on, nothing reaches it. */
  public void cut(Node n) throws IOException {
    net().cut(regionServers.indexOf(n));
  }

  /** Joins a region server's namespace to the network again. */
  public void heal(Node n) throws IOException {
    net().heal(regionServers.indexOf(n));
  }

  private NetNamespaces net() {
    if (net == null) {
      throw new IllegalStateException("this cluster runs on 127.0.0.1: use LocalCluster.inNamespaces to cut servers off");
    }
    return net;
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
    conf.set("hbase.zookeeper.quorum", host);
    conf.setInt("hbase.zookeeper.property.clientPort", zookeeperPort);
    conf.set("zookeeper.znode.parent", znodeParent);
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
