package io.basalt.bench.compare.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;

/**
 * Real Apache HBase 2.6.4 standalone ({@code HMaster start} in local mode: master, region server and ZooKeeper in
 * one JVM) as a child JVM on free loopback ports, with its data under the work directory. Same heap as Basalt;
 * its block cache fraction is set so the block cache holds exactly Basalt's cache bytes.
 */
public final class HBaseStandalone {
  /** Extra JVM flags for the HBase servers the bench starts (as {@link BasaltJvm#EXTRA_FLAGS_ENV}). */
  static final String EXTRA_FLAGS_ENV = "HBASE_BENCH_SERVER_OPTS";

  /** HBase's own flags for running on JDK 17 (bin/hbase). */
  static final List<String> JDK17_FLAGS = List.of(
      "-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true",
      "--add-modules", "jdk.unsupported",
      "--add-opens", "java.base/java.io=ALL-UNNAMED",
      "--add-opens", "java.base/java.nio=ALL-UNNAMED",
      "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens", "java.base/java.lang=ALL-UNNAMED",
      "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
      "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-opens", "java.base/java.util=ALL-UNNAMED",
      "--add-opens", "java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens", "java.base/jdk.internal.util.random=ALL-UNNAMED",
      "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
      "--add-exports", "java.security.jgss/sun.security.krb5=ALL-UNNAMED");

  private HBaseStandalone() {}

  public static LaunchedTarget start(ServerSettings settings) throws IOException, InterruptedException {
    return start(settings, "hbase", Map.of(), UnaryOperator.identity());
  }

  /**
   * @param name the target's name, also its directory under the work directory and its process's name
   * @param extra settings on top of the bench's (e.g. TLS and the AccessController), in hbase-site.xml
   * @param clientSide what a client needs besides the ZooKeeper address (e.g. TLS settings)
   */
  public static LaunchedTarget start(ServerSettings settings, String name, Map<String, String> extra,
      UnaryOperator<Configuration> clientSide) throws IOException, InterruptedException {
    String classpath = Classpaths.hbase();
    Path dir = Files.createDirectories(settings.workDir().resolve(name));
    Path conf = Files.createDirectories(dir.resolve("conf"));
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    int[] ports = Ports.free(3);
    Map<String, String> site = site(dir, settings, ports[0], ports[1], ports[2]);
    site.putAll(extra);
    Files.writeString(conf.resolve("hbase-site.xml"), siteXml(site), StandardCharsets.UTF_8);
    Files.writeString(conf.resolve("log4j2.properties"), LOG4J2, StandardCharsets.UTF_8);
    List<String> jvm = new ArrayList<>(List.of("-Xms" + settings.heapMb() + "m", "-Xmx" + settings.heapMb() + "m",
        "-XX:+UseG1GC", "-Djava.net.preferIPv4Stack=true", "-Dzookeeper.admin.enableServer=false",
        "-Djava.io.tmpdir=" + tmp));
    jvm.addAll(JDK17_FLAGS);
    jvm.addAll(ChildJvm.flagsFromEnv(EXTRA_FLAGS_ENV));
    ChildJvm child = ChildJvm.start(name, jvm, conf + java.io.File.pathSeparator + classpath,
        "org.apache.hadoop.hbase.master.HMaster", List.of("start"), dir.resolve("logs"));
    return LaunchedTarget.awaitReady(name, "HBase 2.6.4 standalone" + (extra.isEmpty() ? "" : " (" + name + ")"),
        ports[0], 1, List.of(List.of(child)), clientSide);
  }

  /** The hbase-site.xml of the child: local mode, loopback only, free ports, data under {@code dir}. */
  static Map<String, String> site(Path dir, ServerSettings settings, int zk, int master, int rs) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("hbase.cluster.distributed", "false");
    s.put("hbase.rootdir", dir.resolve("data").toUri().toString());
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
    // The local file system cannot hflush/hsync; standalone HBase refuses to start without this.
    s.put("hbase.unsafe.stream.capability.enforce", "false");
    s.put("hbase.master.wait.on.regionservers.maxtostart", "1");
    // Equal memory: the on-heap block cache holds what Basalt's (on-heap) JE cache holds.
    s.put("hfile.block.cache.size", Float.toString(settings.cacheMb() / (float) settings.heapMb()));
    // HBase keeps rolled WALs (oldWALs) and compacted-away HFiles (archive) for 10 minutes, and its cleaners look
    // every 10 minutes: 10 minutes of sustained writes left 25 GB of old WALs and 18 GB of archived HFiles here and
    // filled the disk (HBase aborted on "No space left on device"). A minute each bounds that; the cleaners run
    // as background chores either way, so the writes' cost is unchanged.
    s.put("hbase.master.logcleaner.ttl", "60000");
    s.put("hbase.master.hfilecleaner.ttl", "60000");
    s.put("hbase.master.cleaner.interval", "60000");
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
      "rootLogger = WARN,console",
      "");
}
