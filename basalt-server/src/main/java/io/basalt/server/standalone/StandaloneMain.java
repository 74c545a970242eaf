package io.basalt.server.standalone;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * {@code basalt standalone [--data-dir DIR] [--host H] [--zookeeper-port P] [--master-port P]
 * [--regionserver-port P]}: runs until SIGTERM/SIGINT, then closes every region cleanly.
 */
public final class StandaloneMain {
  private StandaloneMain() {}

  public static void main(String[] args) throws Exception {
    StandaloneConfig c = StandaloneConfig.defaults(Path.of("data"));
    Path dataDir = c.dataDir();
    String host = c.host();
    int zk = c.zookeeperPort();
    int master = c.masterPort();
    int rs = c.regionServerPort();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      String v = i + 1 < args.length ? args[i + 1] : null;
      switch (a) {
        case "--data-dir" -> dataDir = Path.of(required(a, v));
        case "--host" -> host = required(a, v);
        case "--zookeeper-port", "--hbase.zookeeper.property.clientPort" -> zk = port(a, v);
        case "--master-port", "--hbase.master.port" -> master = port(a, v);
        case "--regionserver-port", "--hbase.regionserver.port" -> rs = port(a, v);
        default -> fail("unknown option " + a + " (options: --data-dir, --host, --zookeeper-port, --master-port, --regionserver-port)");
      }
      i++;
    }
    StandaloneConfig config = new StandaloneConfig(dataDir, host, zk, master, rs, c.cacheBytes(), c.zookeeperParent());
    StandaloneServer server;
    try {
      server = new StandaloneServer(config);
    } catch (java.net.BindException e) {
      fail("a port is already in use (" + e.getMessage() + "): is another Basalt or HBase running? Choose ports with "
          + "--zookeeper-port, --master-port, --regionserver-port");
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }, "basalt-shutdown"));
    System.out.println("Basalt standalone is up: hbase.zookeeper.quorum=" + server.zookeeperQuorum()
        + " hbase.zookeeper.property.clientPort=" + server.zookeeperPort());
    stopped.await();
  }

  private static String required(String option, String value) {
    if (value == null) {
      fail(option + " needs a value");
    }
    return value;
  }

  private static int port(String option, String value) {
    try {
      int p = Integer.parseInt(required(option, value));
      if (p < 0 || p > 65535) {
        throw new NumberFormatException();
      }
      return p;
    } catch (NumberFormatException e) {
      fail(option + " must be a port number, not '" + value + "'");
      return -1;
    }
  }

  private static void fail(String message) {
    System.err.println("basalt standalone: " + message);
    System.exit(2);
  }
}
