package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.RegionRecord;
import io.basalt.server.catalog.SnapshotRecord;
import io.basalt.server.master.protocol.CloneSnapshotProtocol;
import io.basalt.server.master.protocol.DeleteSnapshotProtocol;
import io.basalt.server.master.protocol.Outcome;
import io.basalt.server.master.protocol.SnapshotProtocol;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HBaseIOException;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.PleaseHoldException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotDisabledException;
import org.apache.hadoop.hbase.client.SnapshotDescription;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableState;
import org.apache.hadoop.hbase.snapshot.SnapshotCreationException;
import org.apache.hadoop.hbase.snapshot.SnapshotDoesNotExistException;
import org.apache.hadoop.hbase.snapshot.SnapshotExistsException;
import org.apache.hadoop.hbase.snapshot.UnknownSnapshotException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots on the master: takes, deletes, clones, restores, exports and imports them by running the snapshot
 * protocols ({@link SnapshotProtocol}, {@link DeleteSnapshotProtocol}, {@link CloneSnapshotProtocol}) under the
 * master's lock, as splits and moves run, with HBase's errors for HBase's refusals.
 *
 * <p>Where a snapshot lives: each region's linked log on the disk of the server that served the region (a
 * replicated region's primary), nowhere else. A disk lost loses that region of every snapshot on it; the backup is
 * {@link #export}, to a directory every server and the master can write (a mounted backup volume).
 */
public final class Snapshots {
  private static final Logger LOG = LoggerFactory.getLogger(Snapshots.class);
  /** The file an export writes beside its regions' directories: the snapshot's record, as the catalog keeps it. */
  public static final String MANIFEST = "basalt-snapshot.manifest";
  /** HBase's rule for snapshot names (ClientSnapshotDescriptionUtils: a legal table qualifier). */
  private static final Pattern NAME = Pattern.compile("[a-zA-Z_0-9][a-zA-Z_0-9.-]*");

  private final Master master;
  private final Catalog catalog;

  Snapshots(Master master) {
    this.master = master;
    this.catalog = master.catalog();
  }

  /** Completed snapshots, oldest first. */
  public List<SnapshotRecord> list() {
    return catalog.snapshots().all();
  }

  /** Whether {@code name} is complete (the calls run to completion, so one in flight was left by a crash). */
  public boolean isDone(String name) throws IOException {
    if (catalog.snapshots().get(name).isPresent()) {
      return true;
    }
    if (inFlight(name)) {
      return false;
    }
    throw new UnknownSnapshotException("Snapshot '" + name + "' has not been taken or has failed to finish");
  }

  /** Takes {@code name} of {@code table}; returns its record once every region is linked and it is listed. */
  public SnapshotRecord take(String name, TableName table) throws IOException {
    return take(name, table, "");
  }

  /** As {@link #take(String, TableName)}, recording {@code owner} (HBase's SnapshotDescription.owner; "" for none). */
  public SnapshotRecord take(String name, TableName table, String owner) throws IOException {
    checkName(name);
    synchronized (master) {
      if (catalog.snapshots().get(name).isPresent()) {
        throw new SnapshotExistsException("Snapshot '" + name + "' already stored on the filesystem.",
            new SnapshotDescription(name, table));
      }
      if (inFlight(name)) {
        // An earlier try left half done (a server it needed went away) is finished or undone in the background.
        throw new PleaseHoldException("snapshot " + name + " is being taken, undone or deleted; try again");
      }
      TableDescriptor desc = catalog.table(table).orElseThrow(() -> new SnapshotCreationException(
          "Table '" + table + "' doesn't exist, can't take snapshot.", new SnapshotDescription(name, table)));
      master.inFlight().checkNoneHeld(table);
      List<SnapshotRecord.Part> parts = new ArrayList<>();
      for (RegionRecord r : catalog.regions(table)) {
        if (RegionRecord.SPLIT.equals(r.state())) {
          continue; // a retired parent: its daughters hold its rows
        }
        ServerName where = r.replicated() ? master.replicas().primaryOf(r) : r.server();
        if (where == null) {
          throw new PleaseHoldException(r.info().getRegionNameAsString() + " has no server yet; try again");
        }
        parts.add(new SnapshotRecord.Part(r.info(), master.servers().liveAt(where).orElse(where)));
      }
      SnapshotRecord record = new SnapshotRecord(name, desc, System.currentTimeMillis(), parts, owner);
      long start = System.nanoTime();
      Outcome o = master.driveSnapshot(SnapshotProtocol.begin(txnId(name), record), desc);
      require(o, Outcome.Kind.SNAPSHOT_TAKEN);
      LOG.info("snapshot {} of {}: {} regions linked in {} ms", name, table, parts.size(),
          (System.nanoTime() - start) / 1_000_000);
      return record;
    }
  }

  public void delete(String name) throws IOException {
    synchronized (master) {
      SnapshotRecord s = existing(name);
      require(master.driveSnapshot(DeleteSnapshotProtocol.begin(txnId(name), s), null), Outcome.Kind.SNAPSHOT_DELETED);
    }
  }

  /**
   * HBase's RestoreSnapshot call: into {@code table} if it is not the snapshot's own, or the snapshot's table
   * is gone, a clone; else a restore of that (disabled) table.
   */
  public void restoreOrClone(String name, TableName table) throws IOException {
    synchronized (master) {
      SnapshotRecord s = existing(name);
      if (s.table().getRegionReplication() > 1 && master.replicas().factor(s.table()) == 1) {
        throw new DoNotRetryIOException("snapshot " + name + " is of a replicated table (REGION_REPLICATION "
            + s.table().getRegionReplication() + ") and this Basalt does not replicate (standalone): clone or restore"
            + " it in a cluster");
      }
      if (catalog.table(table).isEmpty()) {
        clone(s, table);
      } else if (!table.equals(s.table().getTableName())) {
        throw new TableExistsException(table);
      } else {
        restore(s);
      }
    }
  }

  private void clone(SnapshotRecord s, TableName table) throws IOException {
    if (table.isSystemTable()) {
      throw new DoNotRetryIOException("cannot clone a snapshot into system table " + table);
    }
    if (catalog.namespace(table.getNamespaceAsString()).isEmpty()) {
      throw new NamespaceNotFoundException(table.getNamespaceAsString());
    }
    requireServers(s);
    TableDescriptor desc = TableDescriptorBuilder.copy(table, s.table());
    long regionId = master.nextRegionId();
    long start = System.nanoTime();
    require(master.driveSnapshot(CloneSnapshotProtocol.clone("clone-" + table.getNameAsString().replace(':', '.'),
        s, desc, regionId, groups(s, desc, regionId)), desc), Outcome.Kind.CLONED);
    LOG.info("snapshot {} cloned into {}: {} regions x {} copies in {} ms", s.name(), table, s.parts().size(),
        master.replicas().factor(desc), (System.nanoTime() - start) / 1_000_000);
  }

  private void restore(SnapshotRecord s) throws IOException {
    TableName table = s.table().getTableName();
    if (catalog.state(table).orElseThrow() != TableState.State.DISABLED) {
      throw new TableNotDisabledException(table);
    }
    master.inFlight().checkNoneHeld(table);
    requireServers(s);
    List<SnapshotRecord.Part> replaced = new ArrayList<>();
    for (RegionRecord r : catalog.regions(table)) {
      if (r.replicated()) {
        // Every member's copy goes once the new regions are published.
        r.members().forEach(m -> replaced.add(new SnapshotRecord.Part(r.info(), m.server())));
      } else if (r.server() != null) {
        replaced.add(new SnapshotRecord.Part(r.info(), r.server()));
      }
    }
    long regionId = master.nextRegionId();
    long start = System.nanoTime();
    require(master.driveSnapshot(CloneSnapshotProtocol.restore("restore-" + table.getNameAsString().replace(':', '.'),
        s, replaced, regionId, groups(s, s.table(), regionId)), s.table()), Outcome.Kind.RESTORED);
    LOG.info("{} restored from snapshot {}: {} regions x {} copies in {} ms", table, s.name(), s.parts().size(),
        master.replicas().factor(s.table()), (System.nanoTime() - start) / 1_000_000);
  }

  /**
   * The replica groups of a clone's regions when its table is replicated (none otherwise): each founded on the
   * server holding the region's snapshot files, the other members on the least loaded other live servers. Too few
   * live servers for a majority of the table's copies is a retriable refusal: the table would be enabled with
   * writes acknowledged by fewer copies than its factor promises.
   */
  private List<List<io.basalt.server.catalog.Member>> groups(SnapshotRecord s, TableDescriptor desc, long regionId)
      throws IOException {
    int factor = master.replicas().factor(desc);
    if (factor <= 1) {
      return List.of();
    }
    int live = master.servers().placeable().size();
    int majority = factor / 2 + 1;
    if (live < majority) {
      throw new HBaseIOException("cloning snapshot " + s.name() + " into " + factor + " copies per region needs at"
          + " least " + majority + " live region servers; " + live + " are up: try again when more are");
    }
    List<List<io.basalt.server.catalog.Member>> groups = new ArrayList<>();
    List<io.basalt.server.catalog.Member> chosen = new ArrayList<>();
    List<org.apache.hadoop.hbase.client.RegionInfo> targets = CloneSnapshotProtocol.targetsOf(s, desc, regionId);
    for (int i = 0; i < s.parts().size(); i++) {
      ServerName founder = master.servers().liveAt(s.parts().get(i).server()).orElseThrow();
      List<io.basalt.server.catalog.Member> group = master.replicas().cloneMembers(targets.get(i), founder, factor,
          chosen);
      chosen.addAll(group);
      groups.add(group);
    }
    return groups;
  }

  /** Each region's files are on one server: it must be up (retriable), or the snapshot cannot be read now. */
  private void requireServers(SnapshotRecord s) throws IOException {
    for (SnapshotRecord.Part p : s.parts()) {
      if (master.servers().liveAt(p.server()).isEmpty()) {
        throw new HBaseIOException("snapshot " + s.name() + " has " + p.region().getRegionNameAsString()
            + " on " + p.server().getAddress() + ", which is not online; try again when it is");
      }
    }
  }

  /**
   * Copies the snapshot out to {@code directory}: each region's files by the server holding them, into {@code
   * directory/ENCODED}, then the {@link #MANIFEST} by this master. The directory must be one path that every
   * region server and the master can write (a mounted backup volume). Returns the bytes copied.
   */
  public long export(String name, String directory) throws IOException {
    SnapshotRecord s = existing(name);
    Path dir = Path.of(directory).toAbsolutePath();
    Files.createDirectories(dir);
    if (Files.exists(dir.resolve(MANIFEST))) {
      throw new DoNotRetryIOException(dir + " holds an export already (" + MANIFEST + "); export into an empty directory");
    }
    requireServers(s);
    long bytes = 0;
    for (SnapshotRecord.Part p : s.parts()) {
      bytes += master.servers().control(master.servers().liveAt(p.server()).orElseThrow()).snapshots()
          .exportRegion(name, p.region(), dir.toString());
    }
    Path work = dir.resolve(MANIFEST + ".writing");
    Files.write(work, s.encode());
    Files.move(work, dir.resolve(MANIFEST), StandardCopyOption.ATOMIC_MOVE);
    LOG.info("snapshot {} exported to {}: {} bytes", name, dir, bytes);
    return bytes;
  }

  /**
   * Brings in an export from {@code directory}: its regions spread over the live servers, each copying its files
   * from the directory, then listed under the export's name. Returns the record.
   */
  public SnapshotRecord importFrom(String directory) throws IOException {
    Path dir = Path.of(directory).toAbsolutePath();
    Path manifest = dir.resolve(MANIFEST);
    if (!Files.isRegularFile(manifest)) {
      throw new DoNotRetryIOException(dir + " is not a snapshot export (no " + MANIFEST + ")");
    }
    SnapshotRecord exported = SnapshotRecord.decode(Files.readAllBytes(manifest));
    synchronized (master) {
      if (catalog.snapshots().get(exported.name()).isPresent() || inFlight(exported.name())) {
        throw new SnapshotExistsException("Snapshot '" + exported.name() + "' already stored on the filesystem.",
            new SnapshotDescription(exported.name(), exported.table().getTableName()));
      }
      List<ServerName> live = master.servers().placeable().stream().sorted().toList();
      if (live.isEmpty()) {
        throw new PleaseHoldException("no region server is online to take the imported snapshot's files");
      }
      List<SnapshotRecord.Part> parts = new ArrayList<>();
      for (int i = 0; i < exported.parts().size(); i++) {
        parts.add(new SnapshotRecord.Part(exported.parts().get(i).region(), live.get(i % live.size())));
      }
      SnapshotRecord record = new SnapshotRecord(exported.name(), exported.table(), exported.creationTime(), parts);
      require(master.driveSnapshot(SnapshotProtocol.importFrom(txnId(exported.name()), record, dir.toString()), null),
          Outcome.Kind.SNAPSHOT_TAKEN);
      return record;
    }
  }

  private SnapshotRecord existing(String name) throws IOException {
    Optional<SnapshotRecord> s = catalog.snapshots().get(name);
    if (s.isEmpty()) {
      throw new SnapshotDoesNotExistException("Snapshot '" + name + "' doesn't exist on the filesystem");
    }
    return s.get();
  }

  private static String txnId(String name) {
    return "snapshot-" + name;
  }

  /** Whether a transaction (taking, importing or deleting) of that snapshot is left in ZooKeeper. */
  private boolean inFlight(String name) {
    try {
      return master.inFlight().has(txnId(name));
    } catch (IOException e) {
      return false;
    }
  }

  private static void checkName(String name) throws IOException {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new DoNotRetryIOException(new IllegalArgumentException("Illegal snapshot name '" + name
          + "': letters, digits, '_', '-' and '.' only, not starting with '.' or '-'"));
    }
  }

  private static void require(Outcome o, Outcome.Kind wanted) throws IOException {
    if (o.kind() == Outcome.Kind.REFUSED) {
      throw new DoNotRetryIOException(o.reason());
    }
    if (o.kind() != wanted) {
      throw new HBaseIOException(o.reason());
    }
  }
}
