package io.basalt.storage.mutation;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.cell.CellType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Puts and delete markers for one row, applied atomically. A timestamp of {@link #LATEST} means "now" for
 * puts and for column/family deletes; for a {@link CellType#DELETE} it means "the newest existing version",
 * as in HBase.
 */
public final class RowMutation implements RowOperation {
  /** HBase's {@code HConstants.LATEST_TIMESTAMP}. */
  public static final long LATEST = Long.MAX_VALUE;

  private final byte[] row;
  private final List<Cell> cells;

  private RowMutation(byte[] row, List<Cell> cells) {
    this.row = row;
    this.cells = Collections.unmodifiableList(cells);
  }

  public static Builder of(byte[] row) {
    return new Builder(row);
  }

  @Override
  public byte[] row() {
    return row;
  }

  public List<Cell> cells() {
    return cells;
  }

  public boolean isEmpty() {
    return cells.isEmpty();
  }

  @Override
  public String toString() {
    return "RowMutation" + cells;
  }

  /** Collects the cells of one row's mutation. */
  public static final class Builder {
    private final byte[] row;
    private final List<Cell> cells = new ArrayList<>();

    private Builder(byte[] row) {
      if (row == null || row.length == 0) {
        throw new IllegalArgumentException("Row length is 0");
      }
      if (row.length > Short.MAX_VALUE) {
        throw new IllegalArgumentException("Row length " + row.length + " is > " + Short.MAX_VALUE);
      }
      this.row = row;
    }

    public Builder put(byte[] family, byte[] qualifier, long ts, byte[] value) {
      return add(family, qualifier, ts, CellType.PUT, Objects.requireNonNull(value, "value"));
    }

    public Builder put(byte[] family, byte[] qualifier, byte[] value) {
      return put(family, qualifier, LATEST, value);
    }

    /** Masks the version at exactly {@code ts}; with {@link #LATEST}, the newest version. */
    public Builder deleteVersion(byte[] family, byte[] qualifier, long ts) {
      return add(family, qualifier, ts, CellType.DELETE, null);
    }

    /** Masks all versions of a column at or below {@code ts}. */
    public Builder deleteColumn(byte[] family, byte[] qualifier, long ts) {
      return add(family, qualifier, ts, CellType.DELETE_COLUMN, null);
    }

    /** Masks all columns of a family at or below {@code ts}. */
    public Builder deleteFamily(byte[] family, long ts) {
      return add(family, Bytes.EMPTY, ts, CellType.DELETE_FAMILY, null);
    }

    /** Masks all columns of a family at exactly {@code ts}. */
    public Builder deleteFamilyVersion(byte[] family, long ts) {
      return add(family, Bytes.EMPTY, ts, CellType.DELETE_FAMILY_VERSION, null);
    }

    public Builder add(Cell cell) {
      if (Bytes.compare(cell.row(), row) != 0) {
        throw new IllegalArgumentException("cell row " + Bytes.toStringBinary(cell.row()) + " differs from mutation row "
            + Bytes.toStringBinary(row));
      }
      checkTimestamp(cell.timestamp());
      cells.add(cell);
      return this;
    }

    private Builder add(byte[] family, byte[] qualifier, long ts, CellType type, byte[] value) {
      return add(new Cell(row, Objects.requireNonNull(family, "family"), qualifier, ts, type, value));
    }

    private static void checkTimestamp(long ts) {
      if (ts < 0) {
        throw new IllegalArgumentException("Timestamp cannot be negative. ts=" + ts);
      }
    }

    public RowMutation build() {
      return new RowMutation(row, new ArrayList<>(cells));
    }
  }
}
