package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.RegionRecord;
import io.basalt.server.master.protocol.Action;
import io.basalt.server.master.protocol.SnapshotActions;
import io.basalt.server.master.protocol.Result;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableState;
import org.apache.hadoop.hbase.ipc.ServerNotRunningYetException;

/** How the driver executes the snapshot protocols' own actions (catalog updates and region-server snapshot calls). */
final class SnapshotSteps {
  private final Catalog catalog;
  private final ServerManager servers;

  SnapshotSteps(Catalog catalog, ServerManager servers) {
    this.catalog = catalog;
    this.servers = servers;
  }

  static boolean handles(Action a) {
    return a instanceof SnapshotActions.LinkRegionSnapshot || a instanceof SnapshotActions.ImportRegionSnapshot
        || a instanceof SnapshotActions.DropRegionSnapshot || a instanceof SnapshotActions.RecordSnapshot
        || a instanceof SnapshotActions.ForgetSnapshot || a instanceof SnapshotActions.CloneSnapshotRegion
        || a instanceof SnapshotActions.CreateClonedTable || a instanceof SnapshotActions.PublishClone
        || a instanceof SnapshotActions.RemoveClonedTable || a instanceof SnapshotActions.FoundCloneGroup
        || a instanceof SnapshotActions.EnableClonedTable;
  }

  Result execute(Action a) throws IOException {
    if (a instanceof SnapshotActions.LinkRegionSnapshot l) {
      servers.control(live(l.server())).snapshots().linkRegion(l.snapshot(), l.region());
    } else if (a instanceof SnapshotActions.ImportRegionSnapshot i) {
      servers.control(live(i.server())).snapshots().importRegion(i.snapshot(), i.region(), i.directory());
    } else if (a instanceof SnapshotActions.DropRegionSnapshot d) {
      servers.control(live(d.server())).snapshots().dropRegion(d.snapshot(), d.region());
    } else if (a instanceof SnapshotActions.RecordSnapshot r) {
      catalog.snapshots().put(r.snapshot());
    } else if (a instanceof SnapshotActions.ForgetSnapshot f) {
      catalog.snapshots().remove(f.snapshot());
    } else if (a instanceof SnapshotActions.CloneSnapshotRegion c) {
      servers.control(live(c.server())).snapshots().cloneRegion(c.snapshot(), c.source(), c.target());
    } else if (a instanceof SnapshotActions.CreateClonedTable t) {
      if (catalog.table(t.table().getTableName()).isEmpty()) {
        catalog.putTable(t.table());
        catalog.setState(t.table().getTableName(), TableState.State.DISABLED);
      }
    } else if (a instanceof SnapshotActions.PublishClone p) {
      publish(p);
    } else if (a instanceof SnapshotActions.FoundCloneGroup f) {
      servers.control(live(f.members().get(0).server())).snapshots().foundCloneGroup(f.target(), f.group(),
          f.members());
    } else if (a instanceof SnapshotActions.EnableClonedTable e) {
      for (RegionRecord region : catalog.regions(e.table())) {
        if (!RegionRecord.OPEN.equals(region.state())) {
          catalog.putRegion(region.withState(RegionRecord.OPEN));
        }
      }
      catalog.setState(e.table(), TableState.State.ENABLED);
    } else if (a instanceof SnapshotActions.RemoveClonedTable r) {
      for (RegionRecord region : catalog.regions(r.table())) {
        catalog.removeRegion(region.info());
      }
      if (catalog.table(r.table()).isPresent()) {
        catalog.removeTable(r.table());
      }
    } else {
      throw new IllegalArgumentException("not a snapshot action: " + a);
    }
    return Result.DONE;
  }

  /**
   * The new regions in one ZooKeeper transaction, then the replaced ones removed, then the table's state: a
   * repeat after a crash anywhere in between finds the same end. The table is disabled throughout (a clone's
   * until the last write, a restore's always), so no client is routed to a half-written table.
   */
  private void publish(SnapshotActions.PublishClone p) throws IOException {
    catalog.putTable(p.table());
    String state = p.enable() ? RegionRecord.OPEN : RegionRecord.CLOSED;
    List<RegionRecord> records = new ArrayList<>();
    for (int i = 0; i < p.regions().size(); i++) {
      if (!p.groups().isEmpty()) {
        records.add(RegionRecord.replicated(p.regions().get(i), state, p.groups().get(i)));
        continue;
      }
      ServerName server = servers.liveAt(p.servers().get(i)).orElse(p.servers().get(i));
      records.add(new RegionRecord(p.regions().get(i), server, state));
    }
    catalog.putRegions(records);
    for (RegionInfo gone : p.replaced()) {
      catalog.removeRegion(gone);
    }
    catalog.setState(p.table().getTableName(), p.enable() ? TableState.State.ENABLED : TableState.State.DISABLED);
  }

  private ServerName live(ServerName recorded) throws ServerNotRunningYetException {
    return servers.liveAt(recorded).orElseThrow(() ->
        new ServerNotRunningYetException("region server " + recorded.getAddress() + " is not online"));
  }
}
