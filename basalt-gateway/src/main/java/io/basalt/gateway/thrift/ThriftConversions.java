package io.basalt.gateway.thrift;

import io.basalt.gateway.thrift.generated.ColumnDescriptor;
import io.basalt.gateway.thrift.generated.IllegalArgument;
import io.basalt.gateway.thrift.generated.TCell;
import io.basalt.gateway.thrift.generated.TColumn;
import io.basalt.gateway.thrift.generated.TRegionInfo;
import io.basalt.gateway.thrift.generated.TRowResult;
import io.basalt.gateway.thrift.generated.TScan;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.ParseFilter;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Between Thrift 1's structs and the HBase client's objects, with HBase's gateway conventions: a column is
 * {@code family:qualifier} (a bare family, or {@code family:} for the empty qualifier), a family's name in a
 * ColumnDescriptor ends in a colon, "Ts" variants read the time range [0, ts).
 */
final class ThriftConversions {
  /** The region "version" HBase's gateway reports (HRegionInfo's format version). */
  private static final byte REGION_VERSION = 1;

  private ThriftConversions() {}

  static byte[] bytes(ByteBuffer buf) {
    if (buf == null) {
      return null;
    }
    ByteBuffer b = buf.duplicate();
    byte[] out = new byte[b.remaining()];
    b.get(out);
    return out;
  }

  /** {family} or {family, qualifier}, as HBase's CellUtil.parseColumn splits it. */
  static byte[][] column(ByteBuffer column) {
    byte[] c = bytes(column);
    if (c == null || c.length == 0) {
      throw new IllegalArgumentException("column name is empty");
    }
    return CellUtil.parseColumn(c);
  }

  static byte[] qualifierOrEmpty(byte[][] famAndQf) {
    return famAndQf.length == 1 ? HConstants.EMPTY_BYTE_ARRAY : famAndQf[1];
  }

  /** Restricts a Get to the columns: a bare family means the whole family. */
  static void addColumns(Get get, List<ByteBuffer> columns) {
    if (columns == null) {
      return;
    }
    for (ByteBuffer c : columns) {
      byte[][] fq = column(c);
      if (fq.length == 1) {
        get.addFamily(fq[0]);
      } else {
        get.addColumn(fq[0], fq[1]);
      }
    }
  }

  static void addColumns(Scan scan, List<ByteBuffer> columns) {
    if (columns == null) {
      return;
    }
    for (ByteBuffer c : columns) {
      byte[][] fq = column(c);
      if (fq.length == 1) {
        scan.addFamily(fq[0]);
      } else {
        scan.addColumn(fq[0], fq[1]);
      }
    }
  }

  static List<TCell> cells(Cell[] cells) {
    List<TCell> out = new ArrayList<>();
    if (cells != null) {
      for (Cell c : cells) {
        out.add(new TCell(ByteBuffer.wrap(CellUtil.cloneValue(c)), c.getTimestamp()));
      }
    }
    return out;
  }

  /** One TRowResult per non-empty Result; columns as a map, or in order when the caller asked for sorting. */
  static List<TRowResult> rows(Result[] results, boolean sortColumns) {
    List<TRowResult> out = new ArrayList<>();
    for (Result r : results) {
      if (r == null || r.isEmpty()) {
        continue;
      }
      TRowResult row = new TRowResult();
      row.setRow(r.getRow());
      if (sortColumns) {
        row.setSortedColumns(new ArrayList<>());
        for (Cell c : r.rawCells()) {
          row.getSortedColumns().add(new TColumn(ByteBuffer.wrap(columnName(c)), cell(c)));
        }
      } else {
        row.setColumns(new HashMap<>());
        for (Cell c : r.rawCells()) {
          row.getColumns().put(ByteBuffer.wrap(columnName(c)), cell(c));
        }
      }
      out.add(row);
    }
    return out;
  }

  private static TCell cell(Cell c) {
    return new TCell(ByteBuffer.wrap(CellUtil.cloneValue(c)), c.getTimestamp());
  }

  private static byte[] columnName(Cell c) {
    return Bytes.add(CellUtil.cloneFamily(c), new byte[] {':'}, CellUtil.cloneQualifier(c));
  }

  static ColumnDescriptor columnDescriptor(ColumnFamilyDescriptor f) {
    ColumnDescriptor d = new ColumnDescriptor();
    d.setName(Bytes.add(f.getName(), new byte[] {':'}));
    d.setMaxVersions(f.getMaxVersions());
    d.setCompression(f.getCompressionType().toString());
    d.setInMemory(f.isInMemory());
    d.setBlockCacheEnabled(f.isBlockCacheEnabled());
    d.setBloomFilterType(f.getBloomFilterType().toString());
    d.setTimeToLive(f.getTimeToLive());
    return d;
  }

  static ColumnFamilyDescriptor columnFamily(ColumnDescriptor d) throws IllegalArgument {
    if (d.getName() == null || d.getName().length == 0) {
      throw ThriftErrors.illegalArgument("column name is empty");
    }
    Compression.Algorithm compression = Compression.getCompressionAlgorithmByName(
        d.getCompression().toLowerCase(Locale.ROOT));
    BloomType bloom = BloomType.valueOf(d.getBloomFilterType());
    return ColumnFamilyDescriptorBuilder.newBuilder(CellUtil.parseColumn(d.getName())[0])
        .setMaxVersions(d.getMaxVersions()).setCompressionType(compression).setInMemory(d.isInMemory())
        .setBlockCacheEnabled(d.isBlockCacheEnabled())
        .setTimeToLive(d.getTimeToLive() > 0 ? d.getTimeToLive() : Integer.MAX_VALUE)
        .setBloomFilterType(bloom).build();
  }

  static TRegionInfo regionInfo(HRegionLocation location) {
    RegionInfo info = location.getRegion();
    TRegionInfo r = new TRegionInfo();
    r.setStartKey(info.getStartKey());
    r.setEndKey(info.getEndKey());
    r.setId(info.getRegionId());
    r.setName(info.getRegionName());
    r.setVersion(REGION_VERSION);
    if (location.getServerName() != null) {
      r.setServerName(Bytes.toBytes(location.getServerName().getHostname()));
      r.setPort(location.getServerName().getPort());
    }
    return r;
  }

  /** A TScan as HBase's gateway reads it; a bad filter string fails with IllegalArgumentException. */
  static Scan scan(TScan t) throws java.io.IOException {
    Scan scan = new Scan();
    if (t.isSetStartRow()) {
      scan.withStartRow(t.getStartRow());
    }
    if (t.isSetStopRow()) {
      scan.withStopRow(t.getStopRow());
    }
    if (t.isSetTimestamp()) {
      scan.setTimeRange(0, t.getTimestamp());
    }
    if (t.isSetCaching()) {
      scan.setCaching(t.getCaching());
    }
    if (t.isSetBatchSize()) {
      scan.setBatch(t.getBatchSize());
    }
    if (t.isSetColumns() && !t.getColumns().isEmpty()) {
      addColumns(scan, t.getColumns());
    }
    if (t.isSetFilterString()) {
      scan.setFilter(new ParseFilter().parseFilterString(t.getFilterString()));
    }
    if (t.isSetReversed()) {
      scan.setReversed(t.isReversed());
    }
    if (t.isSetCacheBlocks()) {
      scan.setCacheBlocks(t.isCacheBlocks());
    }
    return scan;
  }
}
