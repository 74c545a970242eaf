package io.basalt.server.master.protocol;

import java.util.Map;
import org.apache.hadoop.hbase.ServerName;

/** What {@link Simulation} needs of a simulated cluster: actions as atomic effects, faults, invariants. */
interface SimModel {
  /** The action's effects, to be run one by one, then its result or failure. */
  SimCluster.Execution execute(Action action);

  /** A region server dies and comes back with its directories (and is assigned its regions again). */
  void crash(ServerName server);

  /** What a new master does for every server: open what the catalog says is OPEN there. */
  void assignAll();

  /** One client write; true if acknowledged. */
  boolean write();

  /** Transactions in ZooKeeper, by id. */
  Map<String, byte[]> txns();

  /** Throws AssertionError naming the first broken invariant. */
  void checkInvariants();
}
