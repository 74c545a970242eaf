package io.basalt.bench.compare.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/**
 * Basalt standalone (ZooKeeper, master and region server in one JVM) as a child JVM on free loopback ports, with
 * the JVM flags bin/basalt uses, the same heap as HBase and the JE cache equal to HBase's block cache.
 */
public final class BasaltStandalone implements Target {
  /** bin/basalt's flags, less the heap (set from the settings). */
  static final List<String> FLAGS = List.of("-XX:+UseZGC", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
      "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED", "-Dio.netty.tryReflectionSetAccessible=true");

  private final ChildJvm child;
  private final int zookeeperPort;
  private final Duration coldStart;

  private BasaltStandalone(ChildJvm child, int zookeeperPort, Duration coldStart) {
    this.child = child;
    this.zookeeperPort = zookeeperPort;
    this.coldStart = coldStart;
  }

  public static BasaltStandalone start(ServerSettings settings) throws IOException, InterruptedException {
    Path dir = Files.createDirectories(settings.workDir().resolve("basalt"));
    Path logs = dir.resolve("logs");
    int[] ports = Ports.free(3);
    List<String> jvm = new ArrayList<>(List.of("-Xms" + settings.heapMb() + "m", "-Xmx" + settings.heapMb() + "m"));
    jvm.addAll(FLAGS);
    jvm.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    if (settings.jfr()) {
      Files.createDirectories(logs);
      jvm.add("-XX:StartFlightRecording=settings=profile,dumponexit=true,filename=" + logs.toAbsolutePath().resolve("basalt.jfr"));
    }
    ChildJvm child = ChildJvm.start("basalt", jvm, Classpaths.basalt(), BasaltChildMain.class.getName(),
        List.of(dir.resolve("data").toString(), Integer.toString(ports[0]), Integer.toString(ports[1]),
            Integer.toString(ports[2]), Integer.toString(settings.cacheMb())), logs);
    try {
      return new BasaltStandalone(child, ports[0], Readiness.await(child, "Basalt", ports[0]));
    } catch (IOException | InterruptedException | RuntimeException e) {
      child.close();
      throw e;
    }
  }

  @Override
  public String name() {
    return "basalt";
  }

  @Override
  public Configuration clientConfiguration() {
    return ClientSettings.zookeeper("127.0.0.1", zookeeperPort);
  }

  @Override
  public Optional<ChildJvm> server() {
    return Optional.of(child);
  }

  @Override
  public Optional<Duration> coldStart() {
    return Optional.of(coldStart);
  }

  @Override
  public void close() {
    child.close();
  }

  @Override
  public String toString() {
    return "Basalt standalone (pid " + child.pid() + ", ZooKeeper 127.0.0.1:" + zookeeperPort + ", log " + child.log()
        + ")";
  }
}
