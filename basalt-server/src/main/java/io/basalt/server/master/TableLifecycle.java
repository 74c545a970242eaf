package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.RegionRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.PleaseHoldException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotDisabledException;
import org.apache.hadoop.hbase.TableNotEnabledException;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table's life: create, disable, enable, delete, truncate, modify and flush, with its regions opened, closed and
 * dropped on the region servers. Called by {@link Master} under its lock (a flush excepted), so no split, move or
 * merge starts meanwhile; a transaction in flight on one of the table's regions makes the changes wait.
 */
final class TableLifecycle {
  private static final Logger LOG = LoggerFactory.getLogger(TableLifecycle.class);

  private final Master master;
  private final Catalog catalog;
  private final ServerManager servers;
  private final ReplicatedRegions replicated;
  private final InFlight inFlight;

  TableLifecycle(Master master, Catalog catalog, ServerManager servers, ReplicatedRegions replicated,
      InFlight inFlight) {
    this.master = master;
    this.catalog = catalog;
    this.servers = servers;
    this.replicated = replicated;
    this.inFlight = inFlight;
  }

  void create(TableDescriptor asked, byte[][] splitKeys) throws IOException {
    TableDescriptor desc = replicated.withFactor(asked);
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
    DescriptorChecks.check(desc);
    List<RegionInfo> regions = RegionLayout.of(name, splitKeys, master.nextRegionId());
    if (servers.placeable().isEmpty()) {
      throw new PleaseHoldException(servers.live().isEmpty() ? "no region server is online yet"
          : "every region server online is decommissioned: none may take new regions");
    }
    catalog.putTable(desc);
    catalog.setState(name, TableState.State.ENABLING);
    openRegions(desc, regions);
    catalog.setState(name, TableState.State.ENABLED);
    LOG.info("created table {} with {} regions", name, regions.size());
  }

  /** Opens new regions spread over the live servers, or enabled ones where their data is. */
  private void openRegions(TableDescriptor desc, List<RegionInfo> regions) throws IOException {
    Map<String, RegionRecord> known = new HashMap<>();
    for (RegionRecord r : catalog.regions(desc.getTableName())) {
      known.put(r.info().getEncodedName(), r);
    }
    int factor = replicated.factor(desc);
    for (RegionInfo info : regions) {
      RegionRecord r = known.get(info.getEncodedName());
      if (r != null && r.replicated()) {
        replicated.open(desc, r, false);
        catalog.putRegion(r.withState(RegionRecord.OPEN));
        continue;
      }
      if (r == null && factor > 1) {
        replicated.create(desc, info, factor);
        continue;
      }
      ServerName where = r != null && r.server() != null ? servers.liveAt(r.server()).orElse(null) : null;
      if (r != null && r.server() != null && where == null) {
        // Its data is on a server that is down: assigned, unavailable until that server returns.
        catalog.putRegion(r.withState(RegionRecord.OPEN));
        continue;
      }
      boolean create = r == null || r.server() == null;
      if (where == null) {
        where = master.leastLoaded().orElseThrow(() -> new PleaseHoldException("no region server is online yet"));
      }
      master.open(desc, info, where, create);
    }
  }

  /** Closes the table's regions; the RegionMap keeps where each one's data is. */
  private void closeRegions(TableName name) throws IOException {
    for (RegionRecord r : servedRegions(name)) {
      if (r.replicated()) {
        replicated.close(r);
      } else if (servers.isLive(r.server())) {
        servers.control(r.server()).closeRegion(r.info());
      }
      catalog.putRegion(r.withState(RegionRecord.CLOSED));
    }
  }

  /** The table's regions that hold data to serve (split parents are retired). */
  private List<RegionRecord> servedRegions(TableName name) {
    return catalog.regions(name).stream().filter(r -> !RegionRecord.SPLIT.equals(r.state())).toList();
  }

  /** Deletes a region's data where it lives (a server that is down cleans it up when it returns). */
  private void dropRegion(RegionRecord r) throws IOException {
    if (r.replicated()) {
      replicated.drop(r);
      catalog.removeRegion(r.info());
      return;
    }
    Optional<ServerName> where = servers.liveAt(r.server());
    if (where.isPresent()) {
      servers.control(where.get()).dropRegion(r.info());
    }
    catalog.removeRegion(r.info());
  }

  void disable(TableName name) throws IOException {
    master.table(name);
    inFlight.checkNoneHeld(name);
    if (catalog.state(name).orElseThrow() != TableState.State.ENABLED) {
      throw new TableNotEnabledException(name);
    }
    catalog.setState(name, TableState.State.DISABLING);
    closeRegions(name);
    catalog.setState(name, TableState.State.DISABLED);
  }

  void enable(TableName name) throws IOException {
    TableDescriptor desc = master.table(name);
    inFlight.checkNoneHeld(name);
    if (catalog.state(name).orElseThrow() != TableState.State.DISABLED) {
      throw new TableNotDisabledException(name);
    }
    catalog.setState(name, TableState.State.ENABLING);
    openRegions(desc, servedRegions(name).stream().map(RegionRecord::info).toList());
    catalog.setState(name, TableState.State.ENABLED);
  }

  void delete(TableName name) throws IOException {
    master.table(name);
    inFlight.checkNoneHeld(name);
    if (catalog.state(name).orElseThrow() != TableState.State.DISABLED) {
      throw new TableNotDisabledException(name);
    }
    for (RegionRecord r : catalog.regions(name)) {
      dropRegion(r);
    }
    catalog.removeTable(name);
    LOG.info("deleted table {}", name);
  }

  void truncate(TableName name, boolean preserveSplits) throws IOException {
    TableDescriptor desc = master.table(name);
    inFlight.checkNoneHeld(name);
    if (catalog.state(name).orElseThrow() != TableState.State.DISABLED) {
      throw new TableNotDisabledException(name);
    }
    List<byte[]> splits = new ArrayList<>();
    for (RegionRecord r : catalog.regions(name)) {
      dropRegion(r);
      if (RegionRecord.SPLIT.equals(r.state())) {
        continue;
      }
      if (r.info().getStartKey().length > 0) {
        splits.add(r.info().getStartKey());
      }
    }
    List<RegionInfo> regions = RegionLayout.of(name, preserveSplits ? splits.toArray(new byte[0][]) : null,
        master.nextRegionId());
    openRegions(desc, regions);
    catalog.setState(name, TableState.State.ENABLED);
  }

  /**
   * HBase's table flush: every server holding a copy of one of the table's regions forces those regions' logs
   * to disk. Returns the regions flushed (copies counted once per server). A server that cannot be reached fails
   * the flush, retriably, unless every region it holds a copy of was flushed on a majority of its members: a
   * replicated region's acknowledged writes are on a majority, so a member that just died (its session not yet
   * expired) does not hold the flush up.
   */
  int flush(TableName name) throws IOException {
    master.table(name);
    List<RegionRecord> regions = catalog.regions(name);
    Set<ServerName> hosts = new HashSet<>();
    for (RegionRecord r : regions) {
      for (ServerName s : copies(r)) {
        servers.liveAt(s).ifPresent(hosts::add);
      }
    }
    int flushed = 0;
    Set<org.apache.hadoop.hbase.net.Address> done = new HashSet<>();
    IOException failed = null;
    for (ServerName s : hosts) {
      try {
        flushed += servers.control(s).flushTable(name);
        done.add(s.getAddress());
      } catch (IOException e) {
        LOG.warn("flush of table {} could not reach {}: {}", name, s, e.getMessage());
        failed = e;
      }
    }
    if (failed != null) {
      for (RegionRecord r : regions) {
        List<ServerName> copies = copies(r);
        long on = copies.stream().filter(s -> done.contains(s.getAddress())).count();
        if (!copies.isEmpty() && on <= copies.size() / 2) {
          throw failed;
        }
      }
    }
    LOG.info("flushed table {}: {} regions on {} of {} servers", name, flushed, done.size(), hosts.size());
    return flushed;
  }

  private static List<ServerName> copies(RegionRecord r) {
    if (r.replicated()) {
      return r.members().stream().map(m -> m.server()).toList();
    }
    return r.server() == null ? List.of() : List.of(r.server());
  }

  void modify(TableDescriptor asked) throws IOException {
    TableName name = asked.getTableName();
    TableDescriptor desc = replicated.keepFactor(master.table(name), asked);
    if (desc.getColumnFamilyCount() == 0) {
      throw new DoNotRetryIOException("Table should have at least one column family.");
    }
    DescriptorChecks.check(desc);
    catalog.putTable(desc);
    Set<ServerName> hosts = new HashSet<>();
    for (RegionRecord r : catalog.regions(name)) {
      List<ServerName> copies = r.replicated() ? r.members().stream().map(m -> m.server()).toList()
          : r.server() == null ? List.of() : List.of(r.server());
      for (ServerName s : copies) {
        servers.liveAt(s).ifPresent(hosts::add);
      }
    }
    for (ServerName s : hosts) {
      servers.control(s).alterTable(desc);
    }
  }
}
