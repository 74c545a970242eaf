package io.basalt.server.config;

/** Where a process listens and keeps its data. */
public final class ServerKeys {
  private ServerKeys() {}

  public static final ConfigKey<String> HOST = ConfigKey.string("basalt.host", "127.0.0.1",
      "Address every listener of this process binds to and advertises to clients (RPC, web UI, embedded "
          + "ZooKeeper). Set it to the machine's name or address for a cluster.");

  public static final ConfigKey<String> DATA_DIR = ConfigKey.path("basalt.data.dir", "data",
      "Directory of this process's data: regions/ (one log-structured B+-tree per region) and, in standalone, "
          + "zookeeper/. Relative paths are from the working directory. HBase's hbase.rootdir has no "
          + "equivalent: regions live on the local disk of their server.");

  public static final ConfigKey<Integer> MASTER_PORT = ConfigKey.port("hbase.master.port", 16000, false,
      "RPC port of the master (MasterService, hbase:meta and the RPC registry).");

  public static final ConfigKey<Integer> REGIONSERVER_PORT = ConfigKey.port("hbase.regionserver.port", 16020, false,
      "RPC port of a region server (ClientService, AdminService).");

  public static final ConfigKey<Integer> MASTER_INFO_PORT = ConfigKey.port("hbase.master.info.port", 16010, true,
      "HTTP port of the master's status pages and /metrics; -1 turns it off. In standalone it is the one HTTP "
          + "port of the process (master and region server pages, all metrics).");

  public static final ConfigKey<Integer> REGIONSERVER_INFO_PORT = ConfigKey.port("hbase.regionserver.info.port", 16030,
      true, "HTTP port of a region server's status page and /metrics; -1 turns it off. Not used in standalone "
          + "(see hbase.master.info.port).");
}
