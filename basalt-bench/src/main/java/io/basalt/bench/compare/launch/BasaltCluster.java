package io.basalt.bench.compare.launch;

import io.basalt.server.launch.MasterMain;
import io.basalt.server.launch.RegionServerMain;
import io.basalt.server.launch.ZooKeeperMain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A Basalt cluster on loopback in which every region is a replica group of {@code factor} members: one ZooKeeper,
 * one master with {@code basalt.replication.factor} = {@code factor}, and {@code factor} region servers (so each
 * server holds one member of every region), each its own child JVM started the way bin/basalt starts the
 * standalone server.
 *
 * <p>Memory: each region server gets the heap and the JE cache the standalone server gets (and HBase): a member
 * holds a full copy of its region, so a server needs what one copy needs. ZooKeeper and the master get
 * {@value #COORDINATOR_HEAP_MB} MB heaps. Ports: each region server replicates on its own block of
 * {@value #REPLICATION_PORTS_PER_SERVER} ports (the bench creates 32 regions; the master gives every member a
 * port of its server's block), the blocks disjoint and free when the cluster starts. No web UIs. Data and logs
 * under {@code WORK_DIR/NAME}.
 */
public final class BasaltCluster {
  /** Heap of the ZooKeeper JVM and of the master JVM. */
  public static final int COORDINATOR_HEAP_MB = 256;

  /** Replication ports per region server: one per member it hosts. */
  public static final int REPLICATION_PORTS_PER_SERVER = 100;

  private BasaltCluster() {}

  /** The target's name for this replication factor ("basalt-rf3"). */
  public static String name(int factor) {
    return "basalt-rf" + factor;
  }

  /** Starts the cluster and waits until all {@code factor} region servers are live. */
  public static LaunchedTarget start(ServerSettings settings, int factor) throws IOException, InterruptedException {
    if (factor < 2) {
      throw new IllegalArgumentException("a replicated cluster needs a replication factor of 2 or more, not " + factor);
    }
    String name = name(factor);
    Path dir = Files.createDirectories(settings.workDir().resolve(name));
    Path data = dir.resolve("data");
    Path logs = dir.resolve("logs");
    String description = "Basalt cluster (replication factor " + factor + ")";
    List<List<ChildJvm>> tiers = new ArrayList<>();
    try {
      int[] ports = Ports.free(2 + factor);
      int zookeeperPort = ports[0];
      int masterPort = ports[1];
      String zookeeper = "127.0.0.1:" + zookeeperPort;
      ChildJvm zk = BasaltJvm.start("zookeeper", COORDINATOR_HEAP_MB, false, ZooKeeperMain.class.getName(),
          List.of("--host", "127.0.0.1", "--port", Integer.toString(zookeeperPort), "--data-dir",
              data.resolve("zookeeper").toString()), logs);
      tiers.add(List.of(zk));
      Readiness.awaitPort(zk, description, zookeeperPort);
      ChildJvm master = BasaltJvm.start("master", COORDINATOR_HEAP_MB, false, MasterMain.class.getName(),
          List.of("--zookeeper", zookeeper, "--host", "127.0.0.1", "--port", Integer.toString(masterPort),
              "--info-port", "-1", "--replication-factor", Integer.toString(factor)), logs);
      tiers.add(List.of(master));
      Readiness.awaitPort(master, description, masterPort);
      int[] replication = Ports.freeBlocks(factor, REPLICATION_PORTS_PER_SERVER);
      List<ChildJvm> regionServers = new ArrayList<>();
      tiers.add(regionServers);
      for (int i = 0; i < factor; i++) {
        String rs = "regionserver-" + i;
        regionServers.add(BasaltJvm.start(rs, settings.heapMb(), settings.jfr(),
            RegionServerMain.class.getName(),
            List.of("--zookeeper", zookeeper, "--host", "127.0.0.1", "--port", Integer.toString(ports[2 + i]),
                "--info-port", "-1", "--data-dir", data.resolve(rs).toString(), "--cache-mb",
                Integer.toString(settings.cacheMb()), "--replication-ports",
                replication[i] + "-" + (replication[i] + REPLICATION_PORTS_PER_SERVER - 1)), logs));
      }
      return LaunchedTarget.awaitReady(name, description, zookeeperPort, factor, tiers);
    } catch (IOException | InterruptedException | RuntimeException e) {
      LaunchedTarget.stop(tiers);
      throw e;
    }
  }
}
