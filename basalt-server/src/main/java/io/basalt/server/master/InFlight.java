package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.RegionRecord;
import io.basalt.server.catalog.TransactionStore;
import io.basalt.server.master.protocol.CloneTxn;
import io.basalt.server.master.protocol.MemberTxn;
import io.basalt.server.master.protocol.SnapshotTxn;
import io.basalt.server.master.protocol.GroupSplitTxn;
import io.basalt.server.master.protocol.MoveTxn;
import io.basalt.server.master.protocol.SplitTxn;
import io.basalt.server.master.protocol.Txn;
import java.io.IOException;
import io.basalt.server.catalog.Member;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.PleaseHoldException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * The regions that splits, moves and member changes in flight hold (parents, daughters, moving regions,
 * regions changing members: their transaction records are still in ZooKeeper), and the refusals that protect them from other operations.
 */
final class InFlight {
  private final TransactionStore transactions;
  private final Catalog catalog;

  InFlight(TransactionStore transactions, Catalog catalog) {
    this.transactions = transactions;
    this.catalog = catalog;
  }

  /** Whether the transaction {@code id} is still in ZooKeeper (not finished or undone yet). */
  boolean has(String id) throws IOException {
    return transactions.all().containsKey(id);
  }

  /** Encoded names of the regions held now. */
  Set<String> held() throws IOException {
    Set<String> held = new HashSet<>();
    for (byte[] record : transactions.all().values()) {
      try {
        Txn txn = Txn.parse(record);
        List<RegionInfo> regions = txn instanceof SplitTxn s ? List.of(s.parent(), s.daughterA(), s.daughterB())
            : txn instanceof GroupSplitTxn g ? List.of(g.parent(), g.daughterA(), g.daughterB())
            : txn instanceof MemberTxn m ? List.of(m.region())
            : txn instanceof SnapshotTxn t ? t.snapshot().parts().stream().map(p -> p.region()).toList()
            : txn instanceof CloneTxn c ? java.util.stream.Stream.concat(c.targets().stream(),
                c.replaced().stream().map(p -> p.region())).toList()
            : txn instanceof io.basalt.server.master.protocol.MergeTxn j ? List.of(j.lower(), j.upper(), j.merged())
            : txn instanceof io.basalt.server.master.protocol.GroupMergeTxn k ? List.of(k.lower().region(),
                k.upper().region(), k.merged())
            : List.of(((MoveTxn) txn).region());
        regions.forEach(r -> held.add(r.getEncodedName()));
      } catch (IOException unreadable) {
        // logged when the master recovers transactions
      }
    }
    return held;
  }

  /**
   * For each region that a member change in flight holds, the members that only the change opens and
   * closes ({@link MemberTxn#ownMembers()}); assignment may open the region's other members.
   */
  Map<String, List<Member>> ownedMembers() throws IOException {
    Map<String, List<Member>> owned = new HashMap<>();
    for (byte[] record : transactions.all().values()) {
      try {
        if (Txn.parse(record) instanceof MemberTxn m) {
          owned.put(m.region().getEncodedName(), m.ownMembers());
        }
      } catch (IOException unreadable) {
        // logged when the master recovers transactions
      }
    }
    return owned;
  }

  /** Refuses to start on a region that a split or move in flight holds. */
  void checkNotHeld(RegionInfo region) throws IOException {
    if (held().contains(region.getEncodedName())) {
      throw new org.apache.hadoop.hbase.client.DoNotRetryRegionException(region.getRegionNameAsString()
          + " is held by an unfinished split or move; try again when it is done");
    }
  }

  /** Refuses, retriably, to start on a region that a transaction in flight holds. */
  void checkNotHeldNow(RegionInfo region) throws IOException {
    if (held().contains(region.getEncodedName())) {
      throw new PleaseHoldException(region.getRegionNameAsString()
          + " is held by an unfinished split, move or member change; try again when it is done");
    }
  }

  /** Refuses table-wide changes while a split or move holds one of the table's regions (retriable). */
  void checkNoneHeld(TableName table) throws IOException {
    Set<String> held = held();
    for (RegionRecord r : catalog.regions(table)) {
      if (held.contains(r.info().getEncodedName())) {
        throw new PleaseHoldException(r.info().getRegionNameAsString() + " of " + table
            + " is held by an unfinished split or move; try again when it is done");
      }
    }
  }
}
