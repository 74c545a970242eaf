package io.basalt.server.convert;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.mutation.Append;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.Increment;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.TimeRange;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.TableDescriptor;

/** HBase client mutations as storage mutations. */
public final class Mutations {
  private Mutations() {}

  /** A Put or Delete as one atomic row mutation; a Delete naming no family deletes every family. */
  public static RowMutation rowMutation(Mutation m, TableDescriptor table) throws DoNotRetryIOException {
    RowMutation.Builder b = RowMutation.of(m.getRow());
    addTo(b, m, table);
    return b.build();
  }

  public static void addTo(RowMutation.Builder b, Mutation m, TableDescriptor table) throws DoNotRetryIOException {
    if (!(m instanceof Put) && !(m instanceof Delete)) {
      throw new DoNotRetryIOException("unsupported mutation " + m.getClass().getSimpleName() + " here");
    }
    refuseDroppedParts(m);
    if (m instanceof Delete && m.getFamilyCellMap().isEmpty()) {
      for (ColumnFamilyDescriptor cf : table.getColumnFamilies()) {
        b.deleteFamily(cf.getName(), m.getTimestamp());
      }
      return;
    }
    try {
      // Every cell of m has m's row (Mutation.add checks it) and its map key's family: one array each for all.
      byte[] row = m.getRow();
      for (java.util.Map.Entry<byte[], List<Cell>> family : m.getFamilyCellMap().entrySet()) {
        for (Cell c : family.getValue()) {
          b.add(Cells.fromRequest(c, row, family.getKey()));
        }
      }
    } catch (IllegalArgumentException e) {
      throw new DoNotRetryIOException(e.getMessage());
    }
  }

  /** An Increment with its time range (which version is the current value) and its cells' timestamps. */
  public static Increment increment(org.apache.hadoop.hbase.client.Increment inc) throws DoNotRetryIOException {
    refuseDroppedParts(inc);
    List<Increment.Delta> deltas = new ArrayList<>();
    for (List<Cell> cells : inc.getFamilyCellMap().values()) {
      for (Cell c : cells) {
        byte[] v = CellUtil.cloneValue(c);
        if (v.length != 8) {
          throw new DoNotRetryIOException("Increment amount is not a long: " + v.length + " bytes");
        }
        deltas.add(new Increment.Delta(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c), Bytes.toLong(v),
            c.getTimestamp()));
      }
    }
    return new Increment(inc.getRow(), deltas, inc.isReturnResults(), timeRange(inc.getTimeRange()));
  }

  public static Append append(org.apache.hadoop.hbase.client.Append app) throws DoNotRetryIOException {
    refuseDroppedParts(app);
    List<Append.Suffix> suffixes = new ArrayList<>();
    for (List<Cell> cells : app.getFamilyCellMap().values()) {
      for (Cell c : cells) {
        suffixes.add(new Append.Suffix(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c), CellUtil.cloneValue(c),
            c.getTimestamp()));
      }
    }
    return new Append(app.getRow(), suffixes, app.isReturnResults(), timeRange(app.getTimeRange()));
  }

  public static TimeRange timeRange(org.apache.hadoop.hbase.io.TimeRange tr) {
    return tr == null || tr.isAllTime() ? TimeRange.ALL : new TimeRange(tr.getMin(), tr.getMax());
  }

  /**
   * What the storage format cannot keep is refused, never dropped: a per-cell TTL ({@code Mutation.setTTL},
   * which HBase turns into a TTL tag on each cell) and cell tags (a client sends them only without a
   * codec, in the protobuf cells; the tag-carrying codec is refused when the connection opens).
   */
  static void refuseDroppedParts(Mutation m) throws DoNotRetryIOException {
    if (m.getTTL() != Long.MAX_VALUE) {
      throw new DoNotRetryIOException("Per-cell TTL (Mutation.setTTL) is not supported by Basalt: a cell's TTL"
          + " comes from its family's TTL only; refused rather than stored without its TTL");
    }
    for (List<Cell> cells : m.getFamilyCellMap().values()) {
      for (Cell c : cells) {
        if (c instanceof org.apache.hadoop.hbase.ExtendedCell e && e.getTagsLength() > 0) {
          throw new DoNotRetryIOException("Cell tags are not supported by Basalt: it stores no tags; refused"
              + " rather than stored without them");
        }
      }
    }
  }

  /** The mutation's durability, its table's default for USE_DEFAULT, HBase's SYNC_WAL if neither says. */
  public static Durability durability(Mutation m, TableDescriptor table) {
    org.apache.hadoop.hbase.client.Durability d = m.getDurability();
    if (d == org.apache.hadoop.hbase.client.Durability.USE_DEFAULT) {
      d = table.getDurability();
    }
    return switch (d) {
      case SKIP_WAL -> Durability.SKIP_WAL;
      case ASYNC_WAL -> Durability.ASYNC_WAL;
      case FSYNC_WAL -> Durability.FSYNC_WAL;
      default -> Durability.SYNC_WAL;
    };
  }
}
