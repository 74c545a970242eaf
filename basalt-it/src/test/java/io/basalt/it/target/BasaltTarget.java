package io.basalt.it.target;

import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;

/** Basalt standalone (ZooKeeper, master and region server) in this JVM, on free ports, data in a temp dir. */
public final class BasaltTarget implements ClusterTarget {
  private final Path dir;
  private final StandaloneServer server;

  private BasaltTarget(Path dir, StandaloneServer server) {
    this.dir = dir;
    this.server = server;
  }

  public static BasaltTarget start() throws IOException, InterruptedException {
    Path dir = Files.createTempDirectory("basalt-target-");
    try {
      return new BasaltTarget(dir, new StandaloneServer(StandaloneConfig.defaults(dir.resolve("data")).withPorts(0, 0, 0)));
    } catch (IOException | RuntimeException | InterruptedException e) {
      Processes.deleteRecursively(dir);
      throw e;
    }
  }

  public StandaloneServer server() {
    return server;
  }

  @Override
  public String name() {
    return Targets.BASALT;
  }

  @Override
  public Configuration clientConfiguration() {
    return ClientSettings.zookeeperRegistry(server.zookeeperQuorum(), server.zookeeperPort());
  }

  @Override
  public Configuration rpcRegistryConfiguration() {
    return ClientSettings.rpcRegistry("127.0.0.1:" + server.regionServerAddress().getPort());
  }

  @Override
  public void close() {
    try {
      server.close();
    } finally {
      Processes.deleteRecursively(dir);
    }
  }

  @Override
  public String toString() {
    return "basalt (ZooKeeper 127.0.0.1:" + server.zookeeperPort() + ")";
  }
}
