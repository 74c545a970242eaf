package io.basalt.server.master;

import io.basalt.server.catalog.TransactionStore;
import io.basalt.server.master.protocol.CloneSnapshotProtocol;
import io.basalt.server.master.protocol.DeleteSnapshotProtocol;
import io.basalt.server.master.protocol.GroupSplitProtocol;
import io.basalt.server.master.protocol.SnapshotProtocol;
import io.basalt.server.master.protocol.MoveProtocol;
import io.basalt.server.master.protocol.Protocol;
import io.basalt.server.master.protocol.ReplaceMemberProtocol;
import io.basalt.server.master.protocol.SplitProtocol;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finishes or undoes the splits, moves and member changes that a previous master (or a crash, or a server
 * away) left half done, each decided from its record in ZooKeeper alone ({@link Protocol#recover}).
 */
final class TransactionRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(TransactionRecovery.class);

  /** The table a transaction's region belongs to. */
  interface Tables {
    TableDescriptor table(TableName name) throws TableNotFoundException;
  }

  private final TransactionStore transactions;
  private final ProtocolDriver protocols;
  private final Tables tables;

  TransactionRecovery(TransactionStore transactions, ProtocolDriver protocols, Tables tables) {
    this.transactions = transactions;
    this.protocols = protocols;
    this.tables = tables;
  }

  /** Drives every transaction in flight to its end; false if some could not be read or finished yet. */
  boolean recoverAll() {
    Map<String, byte[]> pending;
    try {
      pending = transactions.all();
    } catch (IOException e) {
      LOG.warn("cannot read the transactions in flight: {}", e.toString());
      return false;
    }
    boolean all = true;
    for (Map.Entry<String, byte[]> t : pending.entrySet()) {
      Protocol p;
      try {
        p = Protocol.recover(t.getValue());
      } catch (IOException e) {
        LOG.error("transaction {} cannot be read ({}); left as it is", t.getKey(), e.getMessage());
        continue;
      }
      try {
        LOG.info("{}: {}", t.getKey(), p.committed() ? "finishing it" : "undoing it");
        protocols.drive(p, tableOf(p));
      } catch (IOException e) {
        all = false;
        LOG.warn("cannot recover transaction {} yet: {}", t.getKey(), e.getMessage());
      }
    }
    return all;
  }

  /** The table a protocol opens regions of: a clone's own (not in the catalog yet); none for a snapshot's. */
  private TableDescriptor tableOf(Protocol p) throws TableNotFoundException {
    if (p instanceof CloneSnapshotProtocol c) {
      return c.txn().table();
    }
    if (p instanceof SnapshotProtocol || p instanceof DeleteSnapshotProtocol) {
      return null;
    }
    return tables.table(regionOf(p).getTable());
  }

  /** The region a protocol works on (a split's parent). */
  static RegionInfo regionOf(Protocol p) {
    if (p instanceof SplitProtocol s) {
      return s.txn().orElseThrow().parent();
    }
    if (p instanceof GroupSplitProtocol g) {
      return g.txn().orElseThrow().parent();
    }
    if (p instanceof ReplaceMemberProtocol m) {
      return m.txn().region();
    }
    if (p instanceof io.basalt.server.master.protocol.MergeProtocol j) {
      return j.txn().lower();
    }
    if (p instanceof io.basalt.server.master.protocol.GroupMergeProtocol k) {
      return k.txn().orElseThrow().lower().region();
    }
    return ((MoveProtocol) p).txn().region();
  }
}
