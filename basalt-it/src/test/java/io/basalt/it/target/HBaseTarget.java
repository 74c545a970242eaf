package io.basalt.it.target;

import io.basalt.storage.testing.FreePorts;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * Real Apache HBase 2.6.4 standalone ({@code HMaster start} in local mode: master, region server and ZooKeeper
 * in one JVM) as a child process of the test JVM. Its classpath is the one the build resolved from Maven Central
 * (target/hbase-server.classpath); it binds only 127.0.0.1, on free ports, with no info servers, and keeps its
 * data in a temp dir. Ready when a client can list namespaces (the master has finished initializing) and sees a
 * live region server. {@link #close()} ends exactly the process it started and deletes the temp dir.
 */
public final class HBaseTarget implements ClusterTarget {
  static final String CLASSPATH_PROPERTY = "basalt.it.hbaseServerClasspath";
  static final long READY_TIMEOUT_MILLIS = 120_000;

  private final Path dir;
  private final Path log;
  private final int zookeeperPort;
  private final int regionServerPort;
  private final Process process;

  private HBaseTarget(Path dir, Path log, int zookeeperPort, int regionServerPort, Process process) {
    this.dir = dir;
    this.log = log;
    this.zookeeperPort = zookeeperPort;
    this.regionServerPort = regionServerPort;
    this.process = process;
  }

  public static HBaseTarget start() throws IOException, InterruptedException {
    return start(Map.of());
  }

  /**
   * With {@code extra} settings on top (e.g. the AccessController's), also written to core-site.xml so Hadoop's
   * own configuration (group mapping) sees them.
   */
  public static HBaseTarget start(Map<String, String> extra) throws IOException, InterruptedException {
    String classpath = Processes.classpathFromBuild(CLASSPATH_PROPERTY);
    Path dir = Files.createTempDirectory("hbase-target-");
    Path conf = Files.createDirectories(dir.resolve("conf"));
    int[] ports = FreePorts.take(3);
    int zk = ports[0];
    int master = ports[1];
    int rs = ports[2];
    Map<String, String> site = settings(dir, zk, master, rs);
    site.putAll(extra);
    Files.writeString(conf.resolve("hbase-site.xml"), siteXml(site), StandardCharsets.UTF_8);
    if (!extra.isEmpty()) {
      Files.writeString(conf.resolve("core-site.xml"), siteXml(extra), StandardCharsets.UTF_8);
    }
    Files.writeString(conf.resolve("log4j2.properties"), LOG4J2, StandardCharsets.UTF_8);
    Files.createDirectories(dir.resolve("tmp"));
    Path log = Processes.logDir().resolve("hbase-target-" + ProcessHandle.current().pid() + ".log");
    Process process = Processes.startJava(
        List.of("-Xmx1g", "-XX:+UseG1GC", "-Djava.net.preferIPv4Stack=true", "-Dzookeeper.admin.enableServer=false",
            "-Djava.io.tmpdir=" + dir.resolve("tmp")),
        conf + File.pathSeparator + classpath,
        "org.apache.hadoop.hbase.master.HMaster", List.of("start"), log);
    HBaseTarget target = new HBaseTarget(dir, log, zk, rs, process);
    try {
      target.awaitReady();
      return target;
    } catch (IOException | InterruptedException | RuntimeException | Error e) {
      target.close();
      throw e;
    }
  }

  /** The hbase-site.xml of the child: local mode, loopback only, free ports, everything under {@code dir}. */
  static Map<String, String> settings(Path dir, int zk, int master, int rs) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("hbase.cluster.distributed", "false");
    s.put("hbase.rootdir", dir.resolve("hbase").toUri().toString());
    s.put("hbase.tmp.dir", dir.resolve("tmp").toString());
    s.put("hbase.zookeeper.property.dataDir", dir.resolve("zookeeper").toString());
    s.put("hbase.zookeeper.quorum", "127.0.0.1");
    s.put("hbase.zookeeper.property.clientPort", Integer.toString(zk));
    s.put("hbase.zookeeper.property.clientPortAddress", "127.0.0.1");
    s.put("hbase.master.port", Integer.toString(master));
    s.put("hbase.regionserver.port", Integer.toString(rs));
    s.put("hbase.master.ipc.address", "127.0.0.1");
    s.put("hbase.regionserver.ipc.address", "127.0.0.1");
    s.put("hbase.master.hostname", "127.0.0.1");
    s.put("hbase.regionserver.hostname", "127.0.0.1");
    s.put("hbase.master.info.port", "-1");
    s.put("hbase.regionserver.info.port", "-1");
    s.put("hbase.master.info.bindAddress", "127.0.0.1");
    s.put("hbase.regionserver.info.bindAddress", "127.0.0.1");
    // The local file system cannot hflush/hsync; standalone HBase refuses to start without this.
    s.put("hbase.unsafe.stream.capability.enforce", "false");
    // One region server is all there will be: stop waiting for more as soon as it has checked in (saves ~4.5 s).
    s.put("hbase.master.wait.on.regionservers.maxtostart", "1");
    return s;
  }

  private static String siteXml(Map<String, String> settings) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    settings.forEach((k, v) -> xml.append("  <property><name>").append(k).append("</name><value>").append(v)
        .append("</value></property>\n"));
    return xml.append("</configuration>\n").toString();
  }

  private static final String LOG4J2 = String.join("\n",
      "status = warn",
      "appender.console.type = Console",
      "appender.console.name = console",
      "appender.console.target = SYSTEM_OUT",
      "appender.console.layout.type = PatternLayout",
      "appender.console.layout.pattern = %d{HH:mm:ss.SSS} %-5p [%t] %c{2}: %m%n",
      "rootLogger = INFO,console",
      "logger.zookeeper.name = org.apache.zookeeper",
      "logger.zookeeper.level = WARN",
      "logger.hadoop.name = org.apache.hadoop.metrics2",
      "logger.hadoop.level = WARN",
      "");

  /** Polls with the HBase client until the cluster serves, the child dies, or the bound passes. */
  private void awaitReady() throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + READY_TIMEOUT_MILLIS;
    Exception last = null;
    while (true) {
      if (!process.isAlive()) {
        throw new IllegalStateException("HBase exited with code " + process.exitValue() + " before it was ready; log "
            + log + ":\n" + Processes.tail(log, 60));
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException("HBase not ready after " + READY_TIMEOUT_MILLIS + " ms (last probe: " + last
            + "); log " + log + ":\n" + Processes.tail(log, 60));
      }
      if (Processes.accepts(zookeeperPort)) {
        try {
          if (probe()) {
            return;
          }
        } catch (IOException | RuntimeException e) {
          last = e;
        }
      }
      Thread.sleep(500);
    }
  }

  private boolean probe() throws IOException {
    Configuration conf = clientConfiguration();
    conf.setInt("hbase.client.retries.number", 1);
    conf.setInt("hbase.rpc.timeout", 2_000);
    conf.setInt("hbase.client.operation.timeout", 4_000);
    conf.setInt("hbase.client.meta.operation.timeout", 4_000);
    conf.setInt("zookeeper.recovery.retry", 0);
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      // Answers PleaseHoldException until the master has finished initializing (listTableNames does not wait for that).
      admin.listNamespaceDescriptors();
      return !admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS)).getLiveServerMetrics().isEmpty();
    }
  }

  @Override
  public String name() {
    return Targets.HBASE;
  }

  @Override
  public Configuration clientConfiguration() {
    return ClientSettings.zookeeperRegistry("127.0.0.1", zookeeperPort);
  }

  @Override
  public Configuration rpcRegistryConfiguration() {
    return ClientSettings.rpcRegistry("127.0.0.1:" + regionServerPort);
  }

  /** The child's process id, for the record. */
  public long pid() {
    return process.pid();
  }

  public Path log() {
    return log;
  }

  @Override
  public void close() {
    Processes.stop(process, 10_000);
    Processes.deleteRecursively(dir);
  }

  @Override
  public String toString() {
    return "hbase 2.6.4 (pid " + process.pid() + ", ZooKeeper 127.0.0.1:" + zookeeperPort + ", log " + log + ")";
  }
}
