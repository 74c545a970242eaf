package io.basalt.server.master.protocol;

import io.basalt.server.catalog.SnapshotRecord;
import io.basalt.server.master.protocol.SimCluster.Execution;
import io.basalt.server.master.protocol.SimCluster.Write;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A cluster in memory for the snapshot protocols: region servers with region directories (append-only logs),
 * snapshot directories (complete, or a link in progress) and open regions; a catalog of tables, regions and
 * snapshots; an export directory to import from; clients writing to every enabled table. Actions run as short
 * sequences of effects so that a crash can fall between any two.
 */
final class SimSnapshots implements SimWorld {
  static final TableName SOURCE = TableName.valueOf("t");
  static final TableName CLONE = TableName.valueOf("c");
  static final String SNAPSHOT = "s1";
  static final String EXPORT = "/backup/s1";

  record Entry(RegionInfo region, ServerName server) {}

  static final class Server {
    final Map<String, List<Write>> dirs = new TreeMap<>();
    final Map<String, RegionInfo> open = new TreeMap<>();
    /** snapshot name -> region -> the linked log. */
    final Map<String, Map<String, List<Write>>> snapshots = new TreeMap<>();
    /** "snapshot/region" or "region.cloning": work directories a crash may leave. */
    final Set<String> work = new HashSet<>();
    /** Region directories that are the founder of a NEW group (their log's old replication history cut). */
    final Set<String> founded = new HashSet<>();
  }

  final Map<ServerName, Server> servers = new LinkedHashMap<>();
  final Map<TableName, TableDescriptor> tables = new TreeMap<>();
  final Map<TableName, Boolean> enabled = new TreeMap<>();
  final Map<String, Entry> regions = new TreeMap<>();
  /** A replicated region's members' servers, the founder first (the entry's server). */
  final Map<String, List<ServerName>> members = new TreeMap<>();
  final Map<String, SnapshotRecord> snapshots = new TreeMap<>();
  final Map<String, byte[]> txns = new TreeMap<>();
  /** The export an import reads: region -> log. */
  final Map<String, List<Write>> export = new TreeMap<>();
  /** Acknowledged writes per table and key. */
  final Map<TableName, Map<String, String>> acked = new TreeMap<>();
  private int writes;

  SimSnapshots() {
    for (int i = 0; i < 3; i++) {
      servers.put(SimCluster.server(i), new Server());
    }
  }

  static TableDescriptor table(TableName name) {
    return TableDescriptorBuilder.newBuilder(name).setColumnFamily(ColumnFamilyDescriptorBuilder.of("f")).build();
  }

  static RegionInfo region(TableName t, String start, String end, long id) {
    return RegionInfoBuilder.newBuilder(t).setStartKey(Bytes.toBytes(start)).setEndKey(Bytes.toBytes(end))
        .setRegionId(id).build();
  }

  /** Table t: [, k40) on rs0 and [k40, ) on rs1, open, with a few writes each. */
  static SimSnapshots withSource() {
    SimSnapshots c = new SimSnapshots();
    c.tables.put(SOURCE, table(SOURCE));
    c.enabled.put(SOURCE, true);
    c.place(region(SOURCE, "", "k40", 1), SimCluster.server(0));
    c.place(region(SOURCE, "k40", "", 1), SimCluster.server(1));
    for (int i = 0; i < 6; i++) {
      c.write();
    }
    return c;
  }

  void place(RegionInfo r, ServerName on) {
    regions.put(r.getEncodedName(), new Entry(r, on));
    servers.get(on).dirs.put(r.getEncodedName(), new ArrayList<>());
    servers.get(on).open.put(r.getEncodedName(), r);
  }

  /** The snapshot of t as its regions are now, recorded and on disk (for clone, restore and delete tests). */
  SnapshotRecord takeNow() {
    List<SnapshotRecord.Part> parts = new ArrayList<>();
    for (Entry e : regions.values()) {
      if (e.region().getTable().equals(SOURCE)) {
        parts.add(new SnapshotRecord.Part(e.region(), e.server()));
        servers.get(e.server()).snapshots.computeIfAbsent(SNAPSHOT, n -> new TreeMap<>())
            .put(e.region().getEncodedName(), new ArrayList<>(servers.get(e.server()).dirs.get(e.region().getEncodedName())));
      }
    }
    SnapshotRecord s = new SnapshotRecord(SNAPSHOT, tables.get(SOURCE), 1000, parts);
    snapshots.put(SNAPSHOT, s);
    return s;
  }

  List<SnapshotRecord.Part> parts(TableName t) {
    return regions.values().stream().filter(e -> e.region().getTable().equals(t))
        .map(e -> new SnapshotRecord.Part(e.region(), e.server())).toList();
  }

  // ------------------------------------------------------------------ clients

  /** One write to the next key of each enabled table in turn; acknowledged if a server serves its region. */
  @Override
  public boolean write() {
    List<TableName> live = enabled.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).toList();
    if (live.isEmpty()) {
      return false;
    }
    int n = writes++;
    TableName t = live.get(n % live.size());
    String key = String.format("k%02d", (n * 7) % 80);
    String value = "v" + n;
    for (Entry e : regions.values()) {
      if (e.region().getTable().equals(t) && e.region().containsRow(Bytes.toBytes(key))) {
        Server s = servers.get(e.server());
        String r = e.region().getEncodedName();
        if (!s.open.containsKey(r)) {
          return false;
        }
        List<ServerName> group = members.getOrDefault(r, List.of(e.server()));
        List<Server> copies = group.stream().map(servers::get).filter(m -> m.open.containsKey(r)).toList();
        if (copies.size() < group.size() / 2 + 1) {
          return false; // no majority to acknowledge it
        }
        copies.forEach(m -> m.dirs.get(r).add(new Write(key, value)));
        acked.computeIfAbsent(t, x -> new TreeMap<>()).put(key, value);
        return true;
      }
    }
    return false;
  }

  // ------------------------------------------------------------------ crashes and assignment

  @Override
  public Map<String, byte[]> txns() {
    return txns;
  }

  @Override
  public void newMaster() {
    servers.keySet().forEach(this::assign);
  }

  /** Open regions are lost; files and work directories stay; the master reassigns what the catalog says. */
  @Override
  public void crash(ServerName name) {
    servers.get(name).open.clear();
    assign(name);
  }

  /**
   * Assignment opens the regions of enabled tables (a clone's table is enabled only once its regions are
   * published, past the point of no return), as the master does once no transaction holds them.
   */
  private void assign(ServerName name) {
    for (Entry e : regions.values()) {
      boolean member = members.getOrDefault(e.region().getEncodedName(), List.of()).contains(name);
      if ((name.equals(e.server()) || member) && enabled.getOrDefault(e.region().getTable(), false)) {
        Server s = servers.get(name);
        if (!s.dirs.containsKey(e.region().getEncodedName())) {
          throw new AssertionError(e.region().getRegionNameAsString() + " is assigned to " + name + " without data");
        }
        s.open.put(e.region().getEncodedName(), e.region());
      }
    }
  }

  // ------------------------------------------------------------------ actions

  @Override
  public Execution execute(Action action) {
    Execution x = new Execution();
    if (action instanceof Action.InParallel p) {
      for (Action part : p.parts()) {
        Execution e = execute(part);
        if (e.failure != null) {
          return e;
        }
        x.effects.addAll(e.effects);
      }
      x.result = () -> new Result.Each(p.parts().stream().map(a -> (Result) Result.DONE).toList());
      return x;
    }
    if (action instanceof Action.PersistTxn a) {
      return x.then(() -> txns.put(a.txn().id(), a.txn().toBytes()));
    }
    if (action instanceof Action.DeleteTxn a) {
      return x.then(() -> txns.remove(a.id()));
    }
    if (action instanceof SnapshotActions.RecordSnapshot a) {
      return x.then(() -> snapshots.put(a.snapshot().name(), a.snapshot()));
    }
    if (action instanceof SnapshotActions.ForgetSnapshot a) {
      return x.then(() -> snapshots.remove(a.snapshot()));
    }
    if (action instanceof SnapshotActions.CreateClonedTable a) {
      return x.then(() -> {
        if (!tables.containsKey(a.table().getTableName())) {
          tables.put(a.table().getTableName(), a.table());
          enabled.put(a.table().getTableName(), false);
        }
      });
    }
    if (action instanceof SnapshotActions.PublishClone a) {
      TableName t = a.table().getTableName();
      return x.then(() -> {
        tables.put(t, a.table());
        for (int i = 0; i < a.regions().size(); i++) {
          regions.put(a.regions().get(i).getEncodedName(), new Entry(a.regions().get(i), a.servers().get(i)));
          if (!a.groups().isEmpty()) {
            members.put(a.regions().get(i).getEncodedName(),
                a.groups().get(i).stream().map(io.basalt.server.catalog.Member::server).toList());
          }
        }
        a.replaced().forEach(r -> {
          regions.remove(r.getEncodedName());
          members.remove(r.getEncodedName());
        });
      }).then(() -> enabled.put(t, a.enable()));
    }
    if (action instanceof SnapshotActions.EnableClonedTable a) {
      return x.then(() -> enabled.put(a.table(), true));
    }
    if (action instanceof SnapshotActions.RemoveClonedTable a) {
      return x.then(() -> {
        regions.values().removeIf(e -> e.region().getTable().equals(a.table()));
        members.keySet().removeIf(r -> !regions.containsKey(r));
        tables.remove(a.table());
        enabled.remove(a.table());
      });
    }
    Server s = servers.get(action.site().regionServer());
    if (action instanceof SnapshotActions.LinkRegionSnapshot a) {
      return link(s, a.snapshot(), a.region(), () -> s.dirs.get(a.region().getEncodedName()));
    }
    if (action instanceof SnapshotActions.ImportRegionSnapshot a) {
      return link(s, a.snapshot(), a.region(), () -> export.get(a.region().getEncodedName()));
    }
    if (action instanceof SnapshotActions.DropRegionSnapshot a) {
      String r = a.region().getEncodedName();
      return x.then(() -> {
        Map<String, List<Write>> snap = s.snapshots.get(a.snapshot());
        if (snap != null) {
          snap.remove(r);
          if (snap.isEmpty()) {
            s.snapshots.remove(a.snapshot());
          }
        }
      }).then(() -> s.work.remove(a.snapshot() + "/" + r));
    }
    if (action instanceof SnapshotActions.CloneSnapshotRegion a) {
      String target = a.target().getEncodedName();
      if (s.dirs.containsKey(target)) {
        return x;
      }
      List<Write> from = s.snapshots.getOrDefault(a.snapshot(), Map.of()).get(a.source().getEncodedName());
      if (from == null) {
        return Execution.fails("snapshot " + a.snapshot() + " has no files of " + a.source().getEncodedName() + " here");
      }
      return x.then(() -> s.work.add(target + ".cloning")).then(() -> {
        s.work.remove(target + ".cloning");
        s.dirs.put(target, new ArrayList<>(from));
      });
    }
    if (action instanceof SnapshotActions.FoundCloneGroup a) {
      String r = a.target().getEncodedName();
      if (!s.dirs.containsKey(r)) {
        return Execution.fails("no clone of " + r + " to found a group from");
      }
      if (s.open.containsKey(r) || s.founded.contains(r)) {
        return x;
      }
      return x.then(() -> s.founded.add(r));
    }
    if (action instanceof Action.OpenDaughterMember a) {
      String r = a.daughter().getEncodedName();
      boolean founder = a.members().get(0).isOn(a.server());
      if (!s.dirs.containsKey(r) || founder && !s.founded.contains(r)) {
        // Opening a clone that was not refounded would join the snapshot's source group.
        return Execution.fails("no member of " + r + "'s new group here to open");
      }
      return x.then(() -> s.open.put(r, a.daughter()));
    }
    if (action instanceof Action.JoinMember a) {
      String r = a.region().getEncodedName();
      if (s.open.containsKey(r)) {
        return x;
      }
      Server founder = servers.get(a.members().get(0).server());
      if (!founder.open.containsKey(r) || !founder.founded.contains(r)) {
        return Execution.fails("no primary of " + r + "'s new group to copy from");
      }
      // Joined empty: a copy of the founder's files (network restore), then open and caught up.
      return x.then(() -> s.work.add(r + ".joining")).then(() -> {
        s.work.remove(r + ".joining");
        s.dirs.put(r, new ArrayList<>(founder.dirs.get(r)));
        s.open.put(r, a.region());
      });
    }
    if (action instanceof Action.CloseMember a) {
      return x.then(() -> s.open.remove(a.region().getEncodedName()));
    }
    if (action instanceof Action.OpenRegion a) {
      if (!s.dirs.containsKey(a.region().getEncodedName())) {
        return Execution.fails("no data for " + a.region().getEncodedName());
      }
      return x.then(() -> s.open.put(a.region().getEncodedName(), a.region()));
    }
    if (action instanceof Action.DropRegionFiles a) {
      String r = a.region().getEncodedName();
      return x.then(() -> s.open.remove(r)).then(() -> {
        s.dirs.remove(r);
        s.founded.remove(r);
        s.work.remove(r + ".cloning");
        s.work.remove(r + ".joining");
      });
    }
    throw new AssertionError("unexpected action " + action);
  }

  /** A link or import: a work directory, then the complete one (already complete: nothing to do). */
  private Execution link(Server s, String snapshot, RegionInfo region, java.util.function.Supplier<List<Write>> from) {
    Execution x = new Execution();
    String r = region.getEncodedName();
    if (s.snapshots.getOrDefault(snapshot, Map.of()).containsKey(r)) {
      return x;
    }
    if (from.get() == null) {
      return Execution.fails("no files of " + r + " to link");
    }
    return x.then(() -> s.work.add(snapshot + "/" + r)).then(() -> {
      s.work.remove(snapshot + "/" + r);
      s.snapshots.computeIfAbsent(snapshot, n -> new TreeMap<>()).put(r, new ArrayList<>(from.get()));
    });
  }

  // ------------------------------------------------------------------ invariants

  /**
   * Every snapshot the catalog lists has every region's files on its server, as the region's log was at some
   * moment (a prefix of the live region's log while that exists); every acknowledged write is in the directory of
   * the region the catalog routes its key to; the source table's regions are always served while enabled.
   */
  @Override
  public void checkInvariants() {
    for (SnapshotRecord snap : snapshots.values()) {
      for (SnapshotRecord.Part p : snap.parts()) {
        List<Write> files = servers.get(p.server()).snapshots.getOrDefault(snap.name(), Map.of())
            .get(p.region().getEncodedName());
        if (files == null) {
          throw new AssertionError("snapshot " + snap.name() + " is listed but " + p.server().getHostname()
              + " has no files of " + p.region().getEncodedName());
        }
        List<Write> live = servers.get(p.server()).dirs.get(p.region().getEncodedName());
        if (live != null && (live.size() < files.size() || !live.subList(0, files.size()).equals(files))) {
          throw new AssertionError("snapshot " + snap.name() + "'s files of " + p.region().getEncodedName()
              + " are not the region's log as it was: " + files + " vs " + live);
        }
      }
    }
    for (Map.Entry<TableName, Map<String, String>> t : acked.entrySet()) {
      if (!tables.containsKey(t.getKey())) {
        continue; // a clone rolled back: its writes went with it
      }
      for (Map.Entry<String, String> w : t.getValue().entrySet()) {
        Entry route = regions.values().stream().filter(e -> e.region().getTable().equals(t.getKey())
            && e.region().containsRow(Bytes.toBytes(w.getKey()))).findFirst().orElse(null);
        if (route == null) {
          if (enabled.getOrDefault(t.getKey(), false)) {
            throw new AssertionError("no region of " + t.getKey() + " holds " + w.getKey());
          }
          continue;
        }
        List<Write> log = servers.get(route.server()).dirs.get(route.region().getEncodedName());
        if (log == null || log.stream().noneMatch(x -> x.key().equals(w.getKey()) && x.value().equals(w.getValue()))) {
          throw new AssertionError("acknowledged " + w + " of " + t.getKey() + " is not in "
              + route.region().getEncodedName() + " on " + route.server().getHostname());
        }
      }
    }
    // A replicated table is enabled only once every group has a majority of its copies, equal from the start.
    members.forEach((r, group) -> {
      Entry e = regions.get(r);
      if (e != null && enabled.getOrDefault(e.region().getTable(), false)) {
        long copies = group.stream().filter(m -> servers.get(m).dirs.containsKey(r)).count();
        if (copies < group.size() / 2 + 1) {
          throw new AssertionError(r + " is enabled with " + copies + " of " + group.size() + " copies");
        }
        if (!servers.get(group.get(0)).founded.contains(r)) {
          throw new AssertionError(r + "'s founder never founded a group of its own");
        }
      }
    });
    if (enabled.getOrDefault(SOURCE, false)) {
      for (Entry e : regions.values()) {
        if (e.region().getTable().equals(SOURCE) && !servers.get(e.server()).open.containsKey(e.region().getEncodedName())) {
          throw new AssertionError(e.region().getEncodedName() + " of the source table is not served");
        }
      }
    }
  }

  /** Every file of {@code snapshot} on any server, complete or in progress. */
  List<String> snapshotFiles(String snapshot) {
    List<String> out = new ArrayList<>();
    servers.forEach((name, s) -> {
      s.snapshots.getOrDefault(snapshot, Map.of()).keySet().forEach(r -> out.add(name.getHostname() + ":" + r));
      s.work.stream().filter(w -> w.startsWith(snapshot + "/")).forEach(w -> out.add(name.getHostname() + ":" + w));
    });
    return out;
  }

  /** Every region directory (complete or being cloned) on any server whose name is in {@code encoded}. */
  List<String> regionFiles(List<RegionInfo> of) {
    List<String> out = new ArrayList<>();
    for (RegionInfo r : of) {
      servers.forEach((name, s) -> {
        if (s.dirs.containsKey(r.getEncodedName()) || s.work.contains(r.getEncodedName() + ".cloning")
            || s.work.contains(r.getEncodedName() + ".joining")) {
          out.add(name.getHostname() + ":" + r.getEncodedName());
        }
      });
    }
    return out;
  }

  /** The latest value of each key in a region log. */
  static Map<String, String> contents(List<Write> log) {
    Map<String, String> out = new TreeMap<>();
    log.forEach(w -> out.put(w.key(), w.value()));
    return out;
  }
}
