package io.basalt.server.master.protocol;

import java.util.Map;
import org.apache.hadoop.hbase.ServerName;

/** What {@link Simulation} needs of a simulated cluster: actions as effects, client writes, faults, invariants. */
interface SimWorld {
  /** How {@code action} goes from here: its effects one by one, then a result or a failure. */
  SimCluster.Execution execute(Action action);

  /** One client write where the cluster routes it; true if acknowledged. */
  boolean write();

  /** Throws AssertionError naming the first broken invariant. */
  void checkInvariants();

  /** The region server dies (as with kill -9) and comes back at once, its files kept. */
  void crash(ServerName server);

  /** A new master takes over: it assigns what the catalog says before it recovers transactions. */
  void newMaster();

  /** The transaction store (ZooKeeper's transaction znodes). */
  Map<String, byte[]> txns();
}
