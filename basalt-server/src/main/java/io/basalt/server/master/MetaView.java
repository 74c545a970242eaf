package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.Member;
import io.basalt.server.catalog.Primaries;
import io.basalt.server.catalog.RegionRecord;
import io.basalt.server.regionserver.MetaSource;
import io.basalt.server.regionserver.RegionServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.MetaCellComparator;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableState;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * {@code hbase:meta} as HBase clients read it, built from the catalog: a {@code table:state} row per table
 * and an {@code info:} row per region, in meta order ({@link MetaCellComparator}: table, then start key,
 * then region id; not plain byte order). Read-only; rebuilt when the catalog changes.
 */
public final class MetaView implements MetaSource {
  private static final byte[] INFO = HConstants.CATALOG_FAMILY;
  private static final byte[] TABLE = HConstants.TABLE_FAMILY;

  private final Catalog catalog;
  private final Primaries primaries;
  private volatile TreeMap<byte[], List<Cell>> rows = new TreeMap<>(MetaCellComparator.META_COMPARATOR::compareRows);
  private volatile long builtAt = -1;

  /** {@code primaries} null when nothing is replicated. */
  public MetaView(Catalog catalog, Primaries primaries) {
    this.catalog = catalog;
    this.primaries = primaries;
  }

  private TreeMap<byte[], List<Cell>> rows() {
    long v = catalog.version() + (primaries == null ? 0 : primaries.version());
    if (v != builtAt) {
      synchronized (this) {
        if (v != builtAt) {
          rows = build();
          builtAt = v;
        }
      }
    }
    return rows;
  }

  private TreeMap<byte[], List<Cell>> build() {
    TreeMap<byte[], List<Cell>> out = new TreeMap<>(MetaCellComparator.META_COMPARATOR::compareRows);
    for (TableDescriptor t : catalog.tables()) {
      TableState.State state = catalog.state(t.getTableName()).orElse(TableState.State.ENABLED);
      byte[] row = t.getTableName().getName();
      out.put(row, List.of(new KeyValue(row, TABLE, HConstants.STATE_QUALIFIER, 1L,
          new TableState(t.getTableName(), state).convert().toByteArray())));
    }
    for (RegionRecord r : catalog.allRegions()) {
      RegionInfo info = r.info();
      byte[] row = info.getRegionName();
      long ts = info.getRegionId();
      List<Cell> cells = new ArrayList<>();
      cells.add(new KeyValue(row, INFO, HConstants.REGIONINFO_QUALIFIER, ts, RegionInfo.toByteArray(info)));
      List<ServerName> copies = copies(r);
      for (int replica = 0; replica < copies.size(); replica++) {
        location(cells, row, ts, replica, copies.get(replica), r.state());
      }
      if (copies.isEmpty()) {
        cells.add(new KeyValue(row, INFO, HConstants.STATE_QUALIFIER, ts, r.state().getBytes(StandardCharsets.UTF_8)));
      }
      if (r.splitA() != null) {
        cells.add(new KeyValue(row, INFO, HConstants.SPLITA_QUALIFIER, ts, RegionInfo.toByteArray(r.splitA())));
        cells.add(new KeyValue(row, INFO, HConstants.SPLITB_QUALIFIER, ts, RegionInfo.toByteArray(r.splitB())));
      }
      cells.sort(CellComparator.getInstance());
      out.put(row, cells);
    }
    return out;
  }

  /**
   * Where each copy of a region is, as HBase's replica ids: 0 is the primary (the member its group elected,
   * as reported), 1.. the other members in the catalog's order. One entry for an unreplicated region.
   */
  private List<ServerName> copies(RegionRecord r) {
    if (!r.replicated()) {
      return r.server() == null ? List.of() : List.of(r.server());
    }
    ServerName primary = primaries == null ? null : primaries.primary(r.info().getEncodedName())
        .filter(p -> r.memberOn(p).isPresent()).orElse(null);
    List<ServerName> out = new ArrayList<>();
    out.add(primary != null ? primary : r.server());
    for (Member m : r.members()) {
      if (!m.isOn(out.get(0))) {
        out.add(m.server());
      }
    }
    return out;
  }

  /** The columns HBase's client reads for one replica's location ({@code _000N} suffixes for replica N > 0). */
  private static void location(List<Cell> cells, byte[] row, long ts, int replica, ServerName server, String state) {
    cells.add(new KeyValue(row, INFO, column(HConstants.SEQNUM_QUALIFIER_STR, replica), ts,
        Bytes.toBytes(RegionServer.LOCATION_SEQ_NUM)));
    cells.add(new KeyValue(row, INFO, column(HConstants.SERVER_QUALIFIER_STR, replica), ts,
        server.getAddress().toString().getBytes(StandardCharsets.UTF_8)));
    cells.add(new KeyValue(row, INFO, column(HConstants.SERVERNAME_QUALIFIER_STR, replica), ts,
        server.getServerName().getBytes(StandardCharsets.UTF_8)));
    cells.add(new KeyValue(row, INFO, column(HConstants.STARTCODE_QUALIFIER_STR, replica), ts,
        Bytes.toBytes(server.getStartCode())));
    cells.add(new KeyValue(row, INFO, column(HConstants.STATE_QUALIFIER_STR, replica), ts,
        state.getBytes(StandardCharsets.UTF_8)));
  }

  private static byte[] column(String qualifier, int replica) {
    return Bytes.toBytes(replica == 0 ? qualifier
        : qualifier + (char) RegionInfo.REPLICA_ID_DELIMITER + String.format(RegionInfo.REPLICA_ID_FORMAT, replica));
  }

  @Override
  public Result get(Get get) throws IOException {
    List<Cell> cells = rows().get(get.getRow());
    if (cells == null) {
      return Result.EMPTY_RESULT;
    }
    List<Cell> selected = select(cells, get.getFamilyMap(), get.getFilter());
    return selected == null ? Result.EMPTY_RESULT : Result.create(selected);
  }

  @Override
  public List<Result> scan(Scan scan) throws IOException {
    TreeMap<byte[], List<Cell>> all = rows();
    Map<byte[], List<Cell>> range;
    byte[] start = scan.getStartRow();
    byte[] stop = scan.getStopRow();
    boolean hasStart = start.length > 0;
    boolean hasStop = stop.length > 0;
    if (!scan.isReversed()) {
      range = hasStart && hasStop
          ? (MetaCellComparator.META_COMPARATOR.compareRows(start, stop) > 0 ? Collections.emptyNavigableMap()
              : all.subMap(start, scan.includeStartRow(), stop, scan.includeStopRow()))
          : hasStart ? all.tailMap(start, scan.includeStartRow())
          : hasStop ? all.headMap(stop, scan.includeStopRow()) : all;
    } else {
      var desc = all.descendingMap();
      range = hasStart && hasStop
          ? (MetaCellComparator.META_COMPARATOR.compareRows(start, stop) < 0 ? Collections.emptyNavigableMap()
              : desc.subMap(start, scan.includeStartRow(), stop, scan.includeStopRow()))
          : hasStart ? desc.tailMap(start, scan.includeStartRow())
          : hasStop ? desc.headMap(stop, scan.includeStopRow()) : desc;
    }
    List<Result> out = new ArrayList<>();
    Filter filter = scan.getFilter();
    for (List<Cell> cells : range.values()) {
      if (filter != null && filter.filterAllRemaining()) {
        break;
      }
      List<Cell> selected = select(cells, scan.getFamilyMap(), filter);
      if (selected != null && !selected.isEmpty()) {
        out.add(Result.create(selected));
        if (scan.getLimit() > 0 && out.size() >= scan.getLimit()) {
          break;
        }
      }
    }
    return out;
  }

  /** Family/column selection and the filter's row-level calls over one row; null if the row is filtered out. */
  private static List<Cell> select(List<Cell> cells, Map<byte[], NavigableSet<byte[]>> families, Filter filter)
      throws IOException {
    if (filter != null) {
      filter.reset();
      if (filter.filterRowKey(cells.get(0))) {
        return null;
      }
    }
    List<Cell> out = new ArrayList<>();
    for (Cell c : cells) {
      if (!families.isEmpty()) {
        NavigableSet<byte[]> qualifiers = null;
        boolean found = false;
        for (Map.Entry<byte[], NavigableSet<byte[]>> e : families.entrySet()) {
          if (CellUtil.matchingFamily(c, e.getKey())) {
            found = true;
            qualifiers = e.getValue();
          }
        }
        if (!found || qualifiers != null && !qualifiers.isEmpty() && !qualifiers.contains(CellUtil.cloneQualifier(c))) {
          continue;
        }
      }
      if (filter != null) {
        Filter.ReturnCode rc = filter.filterCell(c);
        if (rc == Filter.ReturnCode.NEXT_ROW) {
          break;
        }
        if (rc != Filter.ReturnCode.INCLUDE && rc != Filter.ReturnCode.INCLUDE_AND_NEXT_COL
            && rc != Filter.ReturnCode.INCLUDE_AND_SEEK_NEXT_ROW) {
          continue;
        }
        out.add(filter.transformCell(c));
        if (rc == Filter.ReturnCode.INCLUDE_AND_SEEK_NEXT_ROW) {
          break;
        }
      } else {
        out.add(c);
      }
    }
    if (filter != null) {
      if (filter.hasFilterRow()) {
        filter.filterRowCells(out);
        if (!out.isEmpty() && filter.filterRow()) {
          return null;
        }
      } else if (filter.filterRow()) {
        return null;
      }
    }
    return out;
  }
}
