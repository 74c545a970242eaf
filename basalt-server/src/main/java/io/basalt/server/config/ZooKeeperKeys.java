package io.basalt.server.config;

import java.nio.file.Path;

/** How processes reach ZooKeeper, and where Basalt and HBase's client keep their znodes. */
public final class ZooKeeperKeys {
  private ZooKeeperKeys() {}

  public static final ConfigKey<String> QUORUM = ConfigKey.string("hbase.zookeeper.quorum", "127.0.0.1",
      "Comma-separated ZooKeeper hosts (host or host:port) that masters and region servers connect to. "
          + "Standalone runs its own ZooKeeper and ignores it.");

  public static final ConfigKey<Integer> CLIENT_PORT = ConfigKey.port("hbase.zookeeper.property.clientPort", 2181,
      false, "ZooKeeper port: where the embedded ZooKeeper (standalone, basalt zookeeper) listens, and the port "
          + "of every hbase.zookeeper.quorum host that names none.");

  public static final ConfigKey<String> DATA_DIR = ConfigKey.path("hbase.zookeeper.property.dataDir", "",
      "Data directory of the embedded ZooKeeper; empty means <basalt.data.dir>/zookeeper.");

  public static final ConfigKey<Integer> SESSION_TIMEOUT = ConfigKey.integer("zookeeper.session.timeout", 20_000, 2_000,
      Integer.MAX_VALUE,
      "ZooKeeper session timeout in ms. A region server that cannot confirm its session for half of it stops "
          + "serving (fencing); a dead server is noticed after it. (HBase's default is 90000.)");

  public static final ConfigKey<String> ZNODE_PARENT = ConfigKey.znode("zookeeper.znode.parent", "/hbase",
      "Root znode of HBase's client registry (the master and meta locations unmodified clients read).");

  public static final ConfigKey<String> BASALT_ROOT = ConfigKey.znode("basalt.zookeeper.root", "/basalt",
      "Root znode of Basalt's own state: catalog, region map, server registrations, master election.");

  /** The ZooKeeper connect string: each quorum host with the client port unless it names its own. */
  public static String connectString(BasaltConfig c) {
    int port = c.get(CLIENT_PORT);
    StringBuilder out = new StringBuilder();
    for (String host : c.get(QUORUM).split(",")) {
      String h = host.trim();
      if (h.isEmpty()) {
        continue;
      }
      if (out.length() > 0) {
        out.append(',');
      }
      out.append(h.contains(":") ? h : h + ":" + port);
    }
    if (out.length() == 0) {
      throw new InvalidConfigException(QUORUM.name() + ": names no host");
    }
    return out.toString();
  }

  /** The embedded ZooKeeper's directory. */
  public static Path dataDir(BasaltConfig c) {
    String dir = c.get(DATA_DIR);
    return dir.isEmpty() ? Path.of(c.get(ServerKeys.DATA_DIR)).resolve("zookeeper") : Path.of(dir);
  }
}
