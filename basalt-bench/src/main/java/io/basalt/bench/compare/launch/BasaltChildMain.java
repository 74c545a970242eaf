package io.basalt.bench.compare.launch;

import io.basalt.server.config.ServerKeys;
import io.basalt.server.config.StorageKeys;
import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Basalt standalone as the bench runs it: the given ports, the cache the comparison sets equal to HBase's
 * block cache, and no web UI (its port would clash with HBase's). Args: DATA_DIR ZK_PORT MASTER_PORT RS_PORT
 * CACHE_MB. Runs until SIGTERM, then closes every region cleanly.
 */
public final class BasaltChildMain {
  private BasaltChildMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      System.err.println("usage: BasaltChildMain DATA_DIR ZK_PORT MASTER_PORT RS_PORT CACHE_MB");
      System.exit(2);
    }
    StandaloneConfig ports = StandaloneConfig.defaults(Path.of(args[0]))
        .withPorts(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3])).withInfoPort(-1);
    StandaloneConfig config = new StandaloneConfig(ports.settings().with(ServerKeys.HOST, "127.0.0.1")
        .with(StorageKeys.CACHE_BYTES, Long.toString(Long.parseLong(args[4]) << 20)));
    StandaloneServer server = new StandaloneServer(config);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }, "basalt-shutdown"));
    System.out.println("Basalt standalone is up on ZooKeeper 127.0.0.1:" + server.zookeeperPort());
    stopped.await();
  }
}
