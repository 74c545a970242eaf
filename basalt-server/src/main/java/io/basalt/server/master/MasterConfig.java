package io.basalt.server.master;

import io.basalt.server.config.ReplicationKeys;
import io.basalt.server.config.RpcKeys;
import io.basalt.server.rpc.RpcLimits;

/**
 * Where a master listens and how it reaches ZooKeeper. Port 0 picks a free port (tests). Several masters
 * may run against one ZooKeeper: one is elected active, the others stand by. The balancer runs every
 * {@code balancerPeriodMillis} and a few seconds after a server joins, making one move every
 * {@code balancePauseMillis} (paper §IV.C: clients feel one short blip at a time). With {@code replication}
 * new regions get {@code replicationFactor} copies unless their table sets REGION_REPLICATION; without it
 * (standalone: one region server) every region has one copy. A region server gone for
 * {@code rereplicateAfterMillis} has its members rebuilt on other servers. {@code rpc}: handler threads and the
 * largest request ({@link RpcKeys}).
 */
public record MasterConfig(String host, int port, String zookeeper, String root, String hbaseZnodeParent,
    int sessionTimeoutMillis, long balancerPeriodMillis, long balancePauseMillis, boolean replication,
    int replicationFactor, long rereplicateAfterMillis, RpcLimits rpc) {
  public static final int DEFAULT_PORT = 16000;
  private static final RpcLimits DEFAULT_RPC = new RpcLimits(RpcKeys.MASTER_HANDLERS.defaultValue(),
      RpcKeys.MAX_REQUEST_SIZE.defaultValue().intValue());

  public static MasterConfig defaults(String zookeeper) {
    return new MasterConfig("127.0.0.1", DEFAULT_PORT, zookeeper, "/basalt", "/hbase", 20_000, 300_000, 3_000,
        true, ReplicationKeys.FACTOR.defaultValue(), ReplicationKeys.REREPLICATE_AFTER.defaultValue(), DEFAULT_RPC);
  }

  public MasterConfig withAddress(String h, int p) {
    return new MasterConfig(h, p, zookeeper, root, hbaseZnodeParent, sessionTimeoutMillis, balancerPeriodMillis,
        balancePauseMillis, replication, replicationFactor, rereplicateAfterMillis, rpc);
  }

  public MasterConfig withZnodeParent(String parent) {
    return new MasterConfig(host, port, zookeeper, root, parent, sessionTimeoutMillis, balancerPeriodMillis,
        balancePauseMillis, replication, replicationFactor, rereplicateAfterMillis, rpc);
  }

  public MasterConfig withSessionTimeout(int millis) {
    return new MasterConfig(host, port, zookeeper, root, hbaseZnodeParent, millis, balancerPeriodMillis,
        balancePauseMillis, replication, replicationFactor, rereplicateAfterMillis, rpc);
  }

  public MasterConfig withReplicationFactor(int factor) {
    return new MasterConfig(host, port, zookeeper, root, hbaseZnodeParent, sessionTimeoutMillis, balancerPeriodMillis,
        balancePauseMillis, replication, factor, rereplicateAfterMillis, rpc);
  }

  public MasterConfig withBalancer(long periodMillis, long pauseMillis) {
    return new MasterConfig(host, port, zookeeper, root, hbaseZnodeParent, sessionTimeoutMillis, periodMillis,
        pauseMillis, replication, replicationFactor, rereplicateAfterMillis, rpc);
  }

  public MasterConfig withRereplicateAfter(long millis) {
    return new MasterConfig(host, port, zookeeper, root, hbaseZnodeParent, sessionTimeoutMillis, balancerPeriodMillis,
        balancePauseMillis, replication, replicationFactor, millis, rpc);
  }
}
