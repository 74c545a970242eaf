package io.basalt.storage.je;

import io.basalt.storage.cell.Cell;
import io.basalt.storage.cell.CellType;

/**
 * One family's cells seen as a sorted space of {@link io.basalt.storage.cell.CellKeyCodec} keys, whatever the JE
 * records underneath ({@link CellLayout}): every read, write and maintenance walk of a family goes through it,
 * so the HBase semantics above (RowReader, VersionTrimmer, PurgePass) walk the same key sequence in either layout.
 *
 * <p>Moves return false when there is no such key; the cursor is then unpositioned (as JE's non-sticky cursors:
 * the next call must be a seek, first or last). Keys and values handed out are never changed afterwards.
 */
interface CellCursor extends AutoCloseable {
  /**
   * Whether moves bring the value along (a read that returns nearly every key it reaches) or read keys only, the
   * value then read by {@link #value} as a second step. Only a hint: {@link #value} works either way.
   */
  void valuesWithMoves(boolean withMoves);

  /** To the first key at or after {@code key}, as stored now. */
  boolean seek(byte[] key);

  /**
   * {@link #seek} within the row the cursor is on, which the caller reads atomically (under its row lock or an
   * optimistic read it validates): the cursor may answer from what it read of that row since its last seek.
   */
  boolean seekInRow(byte[] key);

  boolean first();

  boolean last();

  boolean next();

  /**
   * {@link #next} when the key after is of the same row as the key the cursor is on; false (the cursor then
   * unpositioned) at the row's end. A walk that stays in one row (a Get, a writer's trim of a column) asks this
   * instead, so a layout that knows where the row ends need not read the next row's record to find out.
   */
  boolean nextInRow();

  boolean prev();

  /**
   * Steps back to the key before the one the cursor is on if that key is of the same row; else (the cursor is on
   * its row's first key) stays where it is and returns false. A writer asks this of the key it just put (is it its
   * row's first, its column's first?); a row's first chunk of row records answers it without a JE step.
   */
  boolean prevInRow();

  /** Reads the key the cursor is on again; false if it was deleted meanwhile or the cursor is unpositioned. */
  boolean refresh();

  /** The key the cursor is on (after a successful move). */
  byte[] key();

  /** The value of the key the cursor is on, or null if it was deleted meanwhile. */
  byte[] value();

  /**
   * The cell the cursor is on, named by the caller (who decoded its key), or null if it was deleted meanwhile. Its
   * value may be a slice of what the cursor read rather than a copy: a read hands it on without copying again.
   */
  default Cell cell(byte[] row, byte[] family, byte[] qualifier, long timestamp, CellType type) {
    byte[] value = value();
    return value == null ? null : new Cell(row, family, qualifier, timestamp, type, value);
  }

  /**
   * Stores {@code length} bytes of {@code value} from {@code offset} under {@code key} and stays on it; true when
   * the key was new. The cursor may keep {@code value} until {@link #flush}: its bytes must not change before.
   * Writing cursors only.
   */
  boolean put(byte[] key, byte[] value, int offset, int length);

  /** Deletes the key the cursor is on; {@link #next} then moves to the key after it. Writing cursors only. */
  void delete();

  /** Stores writes the cursor holds back (a row mutation ends with this); moves may then need a search. */
  void flush();

  /** Stores what {@link #flush} would, then closes. */
  @Override
  void close();
}
