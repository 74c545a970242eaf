package io.basalt.server.catalog;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableState;
import org.apache.hadoop.hbase.exceptions.DeserializationException;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.zookeeper.KeeperException;

/**
 * The cluster's catalog, kept in ZooKeeper under the Basalt root (so any master can take over without moving
 * data) and cached in memory by the active master, the only writer.
 * <pre>
 * ROOT/cluster-id                 UTF-8 cluster id (stable across restarts)
 * ROOT/namespaces/NS              HBaseProtos.NamespaceDescriptor
 * ROOT/tables/NS:NAME             TableDescriptorBuilder.toByteArray (PBUF + TableSchema)
 * ROOT/table-states/NS:NAME       HBaseProtos.TableState
 * ROOT/regionmap/ENCODED          RegionRecord
 * ROOT/snapshots/NAME             SnapshotRecord ({@link SnapshotCatalog})
 * </pre>
 */
public final class Catalog {
  private final CuratorFramework zk;
  private final String root;
  private final Map<String, NamespaceDescriptor> namespaces = new ConcurrentHashMap<>();
  private final Map<TableName, TableDescriptor> tables = new ConcurrentHashMap<>();
  private final Map<TableName, TableState.State> states = new ConcurrentHashMap<>();
  private final Map<String, RegionRecord> regions = new ConcurrentHashMap<>();
  private volatile String clusterId;
  private volatile long version;
  private final SnapshotCatalog snapshots;

  public Catalog(CuratorFramework zk, String root) {
    this.zk = zk;
    this.root = root;
    this.snapshots = new SnapshotCatalog(zk, root);
  }

  /** The completed snapshots. */
  public SnapshotCatalog snapshots() {
    return snapshots;
  }

  /** Reads everything from ZooKeeper, creating the cluster id and built-in namespaces on first start. */
  public synchronized void load() throws IOException {
    try {
      String idPath = root + "/cluster-id";
      if (zk.checkExists().forPath(idPath) == null) {
        zk.create().creatingParentsIfNeeded().forPath(idPath, UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8));
      }
      clusterId = new String(zk.getData().forPath(idPath), StandardCharsets.UTF_8);
      for (String ns : children("namespaces")) {
        namespaces.put(ns, ProtobufUtil.toNamespaceDescriptor(
            HBaseProtos.NamespaceDescriptor.parseFrom(zk.getData().forPath(root + "/namespaces/" + ns))));
      }
      for (NamespaceDescriptor builtin : List.of(NamespaceDescriptor.DEFAULT_NAMESPACE, NamespaceDescriptor.SYSTEM_NAMESPACE)) {
        if (!namespaces.containsKey(builtin.getName())) {
          putNamespace(builtin);
        }
      }
      for (String t : children("tables")) {
        TableName name = TableName.valueOf(t);
        tables.put(name, TableDescriptorBuilder.parseFrom(zk.getData().forPath(root + "/tables/" + t)));
        byte[] st = zk.getData().forPath(root + "/table-states/" + t);
        states.put(name, TableState.convert(name, HBaseProtos.TableState.parseFrom(st)).getState());
      }
      for (String r : children("regionmap")) {
        regions.put(r, RegionRecord.decode(zk.getData().forPath(root + "/regionmap/" + r)));
      }
      snapshots.load();
      version++;
    } catch (IOException e) {
      throw e;
    } catch (DeserializationException e) {
      throw new IOException("corrupt catalog", e);
    } catch (Exception e) {
      throw new IOException("reading the catalog from ZooKeeper failed: " + e.getMessage(), e);
    }
  }

  private List<String> children(String dir) throws Exception {
    try {
      return zk.getChildren().forPath(root + "/" + dir);
    } catch (KeeperException.NoNodeException e) {
      return List.of();
    }
  }

  private void write(String path, byte[] data) throws IOException {
    try {
      if (zk.checkExists().forPath(path) == null) {
        zk.create().creatingParentsIfNeeded().forPath(path, data);
      } else {
        zk.setData().forPath(path, data);
      }
      version++;
    } catch (Exception e) {
      throw new IOException("writing " + path + " to ZooKeeper failed: " + e.getMessage(), e);
    }
  }

  private void delete(String path) throws IOException {
    try {
      zk.delete().quietly().forPath(path);
      version++;
    } catch (Exception e) {
      throw new IOException("deleting " + path + " from ZooKeeper failed: " + e.getMessage(), e);
    }
  }

  /** Increases whenever the catalog changes (for caches of views built from it). */
  public long version() {
    return version;
  }

  public String clusterId() {
    return clusterId;
  }

  // namespaces

  public List<NamespaceDescriptor> namespaces() {
    List<NamespaceDescriptor> out = new ArrayList<>(namespaces.values());
    out.sort(Comparator.comparing(NamespaceDescriptor::getName));
    return out;
  }

  public Optional<NamespaceDescriptor> namespace(String name) {
    return Optional.ofNullable(namespaces.get(name));
  }

  public synchronized void putNamespace(NamespaceDescriptor ns) throws IOException {
    write(root + "/namespaces/" + ns.getName(), ProtobufUtil.toProtoNamespaceDescriptor(ns).toByteArray());
    namespaces.put(ns.getName(), ns);
  }

  public synchronized void removeNamespace(String name) throws IOException {
    delete(root + "/namespaces/" + name);
    namespaces.remove(name);
  }

  // tables

  public List<TableDescriptor> tables() {
    List<TableDescriptor> out = new ArrayList<>(tables.values());
    out.sort(Comparator.comparing(TableDescriptor::getTableName));
    return out;
  }

  public Optional<TableDescriptor> table(TableName name) {
    return Optional.ofNullable(tables.get(name));
  }

  public Optional<TableState.State> state(TableName name) {
    return Optional.ofNullable(states.get(name));
  }

  public synchronized void putTable(TableDescriptor desc) throws IOException {
    write(root + "/tables/" + desc.getTableName().getNameAsString(), TableDescriptorBuilder.toByteArray(desc));
    tables.put(desc.getTableName(), desc);
  }

  public synchronized void setState(TableName name, TableState.State state) throws IOException {
    write(root + "/table-states/" + name.getNameAsString(), new TableState(name, state).convert().toByteArray());
    states.put(name, state);
  }

  public synchronized void removeTable(TableName name) throws IOException {
    delete(root + "/table-states/" + name.getNameAsString());
    delete(root + "/tables/" + name.getNameAsString());
    states.remove(name);
    tables.remove(name);
  }

  // regions

  public List<RegionRecord> regions(TableName table) {
    List<RegionRecord> out = new ArrayList<>();
    for (RegionRecord r : regions.values()) {
      if (r.info().getTable().equals(table)) {
        out.add(r);
      }
    }
    out.sort(Comparator.comparing(RegionRecord::info, RegionInfo.COMPARATOR));
    return out;
  }

  public List<RegionRecord> allRegions() {
    List<RegionRecord> out = new ArrayList<>(regions.values());
    out.sort(Comparator.comparing(RegionRecord::info, RegionInfo.COMPARATOR));
    return out;
  }

  public Optional<RegionRecord> region(String encodedName) {
    return Optional.ofNullable(regions.get(encodedName));
  }

  public synchronized void putRegion(RegionRecord r) throws IOException {
    write(root + "/regionmap/" + r.info().getEncodedName(), r.encode());
    regions.put(r.info().getEncodedName(), r);
  }

  /** Writes several region records in one ZooKeeper transaction: readers see all of them or none. */
  public synchronized void putRegions(List<RegionRecord> records) throws IOException {
    try {
      // A transaction's creates need their parent: a fresh cluster's first regions may come this way (a clone).
      if (zk.checkExists().forPath(root + "/regionmap") == null) {
        zk.create().orSetData().creatingParentsIfNeeded().forPath(root + "/regionmap");
      }
      List<org.apache.curator.framework.api.transaction.CuratorOp> ops = new ArrayList<>();
      for (RegionRecord r : records) {
        String path = root + "/regionmap/" + r.info().getEncodedName();
        ops.add(zk.checkExists().forPath(path) == null
            ? zk.transactionOp().create().forPath(path, r.encode())
            : zk.transactionOp().setData().forPath(path, r.encode()));
      }
      zk.transaction().forOperations(ops);
      for (RegionRecord r : records) {
        regions.put(r.info().getEncodedName(), r);
      }
      version++;
    } catch (Exception e) {
      throw new IOException("writing " + records.size() + " region records to ZooKeeper failed: " + e.getMessage(), e);
    }
  }

  /**
   * Writes {@code records} and deletes {@code gone} (already missing is fine) in one ZooKeeper transaction: readers
   * see all of it or none (a merge's publication).
   */
  public synchronized void replaceRegions(List<RegionRecord> records, List<RegionInfo> gone) throws IOException {
    try {
      List<org.apache.curator.framework.api.transaction.CuratorOp> ops = new ArrayList<>();
      for (RegionRecord r : records) {
        String path = root + "/regionmap/" + r.info().getEncodedName();
        ops.add(zk.checkExists().forPath(path) == null
            ? zk.transactionOp().create().forPath(path, r.encode())
            : zk.transactionOp().setData().forPath(path, r.encode()));
      }
      for (RegionInfo g : gone) {
        String path = root + "/regionmap/" + g.getEncodedName();
        if (zk.checkExists().forPath(path) != null) {
          ops.add(zk.transactionOp().delete().forPath(path));
        }
      }
      zk.transaction().forOperations(ops);
      for (RegionRecord r : records) {
        regions.put(r.info().getEncodedName(), r);
      }
      for (RegionInfo g : gone) {
        regions.remove(g.getEncodedName());
      }
      version++;
    } catch (Exception e) {
      throw new IOException("replacing " + gone.size() + " region records in ZooKeeper failed: " + e.getMessage(), e);
    }
  }

  public synchronized void removeRegion(RegionInfo info) throws IOException {
    delete(root + "/regionmap/" + info.getEncodedName());
    regions.remove(info.getEncodedName());
  }
}
