package io.basalt.server.convert;

import io.basalt.storage.cell.CellType;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;

/** Cells between HBase's client type and the storage layer's. */
public final class Cells {
  private Cells() {}

  public static KeyValue toHBase(io.basalt.storage.cell.Cell c) {
    return new KeyValue(c.row(), 0, c.row().length, c.family(), 0, c.family().length, c.qualifier(), 0,
        c.qualifier().length, c.timestamp(), KeyValue.Type.codeToType((byte) c.type().code()), c.valueArray(),
        c.valueOffset(), c.valueLength());
  }

  public static List<Cell> toHBase(List<io.basalt.storage.cell.Cell> cells) {
    List<Cell> out = new ArrayList<>(cells.size());
    for (io.basalt.storage.cell.Cell c : cells) {
      out.add(toHBase(c));
    }
    return out;
  }

  /**
   * Stored cells for a read's response, without copying them ({@link ResponseCell}); for anything that keeps or
   * compares cells as KeyValues (filters), use {@link #toHBase(List)}.
   */
  public static Cell[] forResponse(List<io.basalt.storage.cell.Cell> cells) {
    Cell[] out = new Cell[cells.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = forResponse(cells.get(i));
    }
    return out;
  }

  /** One stored cell for a read's response, not copied (see {@link #forResponse(List)}). */
  public static Cell forResponse(io.basalt.storage.cell.Cell cell) {
    return new ResponseCell(cell);
  }

  public static io.basalt.storage.cell.Cell toStorage(Cell c) {
    return new io.basalt.storage.cell.Cell(CellUtil.cloneRow(c), CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c),
        c.getTimestamp(), CellType.fromCode(c.getType().getCode() & 0xFF), CellUtil.cloneValue(c));
  }

  /**
   * A cell of a request's mutation as a storage cell of {@code row} and {@code family}, without copying its value:
   * the storage cell points into the request's own arrays (a cell block's frame, or the fresh arrays the client
   * converters build a protobuf-carried mutation's cells from), which nothing changes while the call lasts. JE's
   * copy into its record is then the value's only copy between the request and the log. The qualifier is copied
   * unless the cell owns it whole (the storage layer takes qualifiers as whole arrays).
   */
  public static io.basalt.storage.cell.Cell fromRequest(Cell c, byte[] row, byte[] family) {
    return new io.basalt.storage.cell.Cell(row, family,
        whole(c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength()), c.getTimestamp(),
        CellType.fromCode(c.getType().getCode() & 0xFF),
        c.getValueLength() == 0 ? io.basalt.storage.cell.Bytes.EMPTY : c.getValueArray(),
        c.getValueLength() == 0 ? 0 : c.getValueOffset(), c.getValueLength());
  }

  private static byte[] whole(byte[] array, int offset, int length) {
    if (array == null || length == 0) {
      return io.basalt.storage.cell.Bytes.EMPTY;
    }
    return offset == 0 && length == array.length ? array : java.util.Arrays.copyOfRange(array, offset, offset + length);
  }

  /**
   * A filter's seek hint as a storage cell: only its coordinates matter. Hints are usually HBase's
   * "first on row/column" cells, typed Maximum, which no stored cell has.
   */
  public static io.basalt.storage.cell.Cell seekTarget(Cell hint) {
    return new io.basalt.storage.cell.Cell(CellUtil.cloneRow(hint), CellUtil.cloneFamily(hint), CellUtil.cloneQualifier(hint),
        hint.getTimestamp(), CellType.PUT, null);
  }

  public static List<io.basalt.storage.cell.Cell> toStorage(List<Cell> cells) {
    List<io.basalt.storage.cell.Cell> out = new ArrayList<>(cells.size());
    for (Cell c : cells) {
      out.add(toStorage(c));
    }
    return out;
  }
}
