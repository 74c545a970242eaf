package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.RegionRecord;
import io.basalt.server.regionserver.RegionServer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotDisabledException;
import org.apache.hadoop.hbase.TableNotEnabledException;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableState;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The master's work: tables, namespaces and their regions, kept in the {@link Catalog}, with regions opened
 * on the region server. Every operation completes before it returns (the RPC layer still hands clients a
 * procedure id to poll, as HBase does).
 */
public final class Master {
  private static final Logger LOG = LoggerFactory.getLogger(Master.class);

  private final Catalog catalog;
  private final RegionServer regionServer;
  private final ServerName name;
  private long lastRegionId;

  public Master(Catalog catalog, RegionServer regionServer, ServerName name) {
    this.catalog = catalog;
    this.regionServer = regionServer;
    this.name = name;
  }

  public ServerName name() {
    return name;
  }

  public Catalog catalog() {
    return catalog;
  }

  public RegionServer regionServer() {
    return regionServer;
  }

  /** Opens the regions of every enabled table (start-up). */
  public synchronized void assignAll() throws IOException {
    for (TableDescriptor t : catalog.tables()) {
      if (catalog.state(t.getTableName()).orElse(TableState.State.ENABLED) == TableState.State.ENABLED) {
        openRegions(t, catalog.regions(t.getTableName()).stream().map(RegionRecord::info).toList());
      }
    }
  }

  public TableDescriptor table(TableName name) throws TableNotFoundException {
    return catalog.table(name).orElseThrow(() -> new TableNotFoundException(name));
  }

  /** Region ids are creation times in ms, unique and increasing (they name the region). */
  private synchronized long nextRegionId() {
    lastRegionId = Math.max(System.currentTimeMillis(), lastRegionId + 1);
    return lastRegionId;
  }

  public synchronized void createTable(TableDescriptor desc, byte[][] splitKeys) throws IOException {
    TableName name = desc.getTableName();
    if (name.isSystemTable()) {
      throw new DoNotRetryIOException("cannot create system table " + name);
    }
    if (catalog.table(name).isPresent()) {
      throw new TableExistsException(name);
    }
    if (catalog.namespace(name.getNamespaceAsString()).isEmpty()) {
      throw new NamespaceNotFoundException(name.getNamespaceAsString());
    }
    if (desc.getColumnFamilyCount() == 0) {
      throw new DoNotRetryIOException("Table should have at least one column family.");
    }
    List<RegionInfo> regions = regionsFor(name, splitKeys);
    catalog.putTable(desc);
    catalog.setState(name, TableState.State.ENABLING);
    openRegions(desc, regions);
    catalog.setState(name, TableState.State.ENABLED);
    LOG.info("created table {} with {} regions", name, regions.size());
  }

  private List<RegionInfo> regionsFor(TableName name, byte[][] splitKeys) throws DoNotRetryIOException {
    byte[][] keys = splitKeys == null ? new byte[0][] : splitKeys.clone();
    Arrays.sort(keys, Bytes.BYTES_COMPARATOR);
    for (int i = 0; i < keys.length; i++) {
      if (keys[i].length == 0) {
        throw new DoNotRetryIOException("Empty split key must not be passed in the split keys.");
      }
      if (i > 0 && Bytes.equals(keys[i - 1], keys[i])) {
        throw new DoNotRetryIOException("All split keys must be unique, found duplicate: " + Bytes.toStringBinary(keys[i]));
      }
    }
    long id = nextRegionId();
    List<RegionInfo> out = new ArrayList<>();
    byte[] start = new byte[0];
    for (int i = 0; i <= keys.length; i++) {
      byte[] end = i < keys.length ? keys[i] : new byte[0];
      out.add(RegionInfoBuilder.newBuilder(name).setStartKey(start).setEndKey(end).setRegionId(id).build());
      start = end;
    }
    return out;
  }

  private void openRegions(TableDescriptor desc, List<RegionInfo> regions) throws IOException {
    for (RegionInfo info : regions) {
      regionServer.openRegion(info, desc);
      catalog.putRegion(new RegionRecord(info, regionServer.serverName(), RegionRecord.OPEN));
    }
  }

  private void closeRegions(TableName name) throws IOException {
    for (RegionRecord r : catalog.regions(name)) {
      regionServer.closeRegion(r.info().getEncodedName());
      catalog.putRegion(new RegionRecord(r.info(), null, RegionRecord.CLOSED));
    }
  }

  public synchronized void disableTable(TableName name) throws IOException {
    table(name);
    if (catalog.state(name).orElseThrow() != TableState.State.ENABLED) {
      throw new TableNotEnabledException(name);
    }
    catalog.setState(name, TableState.State.DISABLING);
    closeRegions(name);
    catalog.setState(name, TableState.State.DISABLED);
  }

  public synchronized void enableTable(TableName name) throws IOException {
    TableDescriptor desc = table(name);
    if (catalog.state(name).orElseThrow() != TableState.State.DISABLED) {
      throw new TableNotDisabledException(name);
    }
    catalog.setState(name, TableState.State.ENABLING);
    openRegions(desc, catalog.regions(name).stream().map(RegionRecord::info).toList());
    catalog.setState(name, TableState.State.ENABLED);
  }

  public synchronized void deleteTable(TableName name) throws IOException {
    table(name);
    if (catalog.state(name).orElseThrow() != TableState.State.DISABLED) {
      throw new TableNotDisabledException(name);
    }
    for (RegionRecord r : catalog.regions(name)) {
      regionServer.dropRegion(r.info());
      catalog.removeRegion(r.info());
    }
    catalog.removeTable(name);
    LOG.info("deleted table {}", name);
  }

  public synchronized void truncateTable(TableName name, boolean preserveSplits) throws IOException {
    TableDescriptor desc = table(name);
    if (catalog.state(name).orElseThrow() != TableState.State.DISABLED) {
      throw new TableNotDisabledException(name);
    }
    List<RegionRecord> old = catalog.regions(name);
    List<byte[]> splits = new ArrayList<>();
    for (RegionRecord r : old) {
      regionServer.dropRegion(r.info());
      catalog.removeRegion(r.info());
      if (r.info().getStartKey().length > 0) {
        splits.add(r.info().getStartKey());
      }
    }
    List<RegionInfo> regions = regionsFor(name, preserveSplits ? splits.toArray(new byte[0][]) : null);
    openRegions(desc, regions);
    catalog.setState(name, TableState.State.ENABLED);
  }

  public synchronized void modifyTable(TableDescriptor desc) throws IOException {
    TableName name = desc.getTableName();
    table(name);
    if (desc.getColumnFamilyCount() == 0) {
      throw new DoNotRetryIOException("Table should have at least one column family.");
    }
    catalog.putTable(desc);
    regionServer.alterTable(desc);
  }

  public synchronized void createNamespace(NamespaceDescriptor ns) throws IOException {
    if (catalog.namespace(ns.getName()).isPresent()) {
      throw new NamespaceExistException(ns.getName());
    }
    TableName.isLegalNamespaceName(Bytes.toBytes(ns.getName()));
    catalog.putNamespace(ns);
  }

  public synchronized void modifyNamespace(NamespaceDescriptor ns) throws IOException {
    namespace(ns.getName());
    catalog.putNamespace(ns);
  }

  public NamespaceDescriptor namespace(String name) throws NamespaceNotFoundException {
    return catalog.namespace(name).orElseThrow(() -> new NamespaceNotFoundException(name));
  }

  public synchronized void deleteNamespace(String name) throws IOException {
    namespace(name);
    if (name.equals(NamespaceDescriptor.DEFAULT_NAMESPACE_NAME_STR) || name.equals(NamespaceDescriptor.SYSTEM_NAMESPACE_NAME_STR)) {
      throw new DoNotRetryIOException("Reserved namespace " + name + " cannot be removed.");
    }
    for (TableDescriptor t : catalog.tables()) {
      if (t.getTableName().getNamespaceAsString().equals(name)) {
        throw new DoNotRetryIOException("Only empty namespaces can be removed. Namespace " + name + " has tables");
      }
    }
    catalog.removeNamespace(name);
  }
}
