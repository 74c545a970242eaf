package io.basalt.storage.je;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Put;
import java.util.function.Consumer;

/**
 * {@link CellLayout#CELL_RECORDS}: every cell version is its own JE record, keyed by its cell key, so this is a
 * JE cursor with nothing in between. Moves read without locks ({@code READ_UNCOMMITTED}): readers make rows
 * atomic with the row locks, and every writer of a row holds its write lock.
 */
final class CellRecordCursor implements CellCursor {
  private final Cursor cursor;
  /** Closes the JE cursor, or returns it to the pool it came from. */
  private final Consumer<Cursor> release;
  private final DatabaseEntry key = new DatabaseEntry();
  /** Takes no bytes: the key of a value read whose key is already known. */
  private final DatabaseEntry noKey = Cursors.noData();
  private final DatabaseEntry keysOnly = Cursors.noData();
  private DatabaseEntry moveData = keysOnly;
  /** The value the last move brought. */
  private boolean valueRead;

  CellRecordCursor(Cursor cursor, Consumer<Cursor> release) {
    this.cursor = cursor;
    this.release = release;
  }

  @Override
  public void valuesWithMoves(boolean withMoves) {
    moveData = withMoves ? new DatabaseEntry() : keysOnly;
    valueRead = false;
  }

  @Override
  public boolean seek(byte[] target) {
    key.setData(target);
    return moved(cursor.getSearchKeyRange(key, moveData, LockMode.READ_UNCOMMITTED));
  }

  @Override
  public boolean seekInRow(byte[] target) {
    return seek(target);
  }

  @Override
  public boolean first() {
    return moved(cursor.getFirst(key, moveData, LockMode.READ_UNCOMMITTED));
  }

  @Override
  public boolean last() {
    return moved(cursor.getLast(key, moveData, LockMode.READ_UNCOMMITTED));
  }

  @Override
  public boolean next() {
    return moved(cursor.getNext(key, moveData, LockMode.READ_UNCOMMITTED));
  }

  @Override
  public boolean nextInRow() {
    byte[] here = key.getData();
    int rowPrefixLength = io.basalt.storage.cell.CellKeyCodec.rowPrefixLength(here);
    return next() && io.basalt.storage.cell.CellKeyCodec.sharesPrefix(key.getData(), here, rowPrefixLength);
  }

  @Override
  public boolean prev() {
    return moved(cursor.getPrev(key, moveData, LockMode.READ_UNCOMMITTED));
  }

  @Override
  public boolean prevInRow() {
    byte[] here = key.getData();
    int rowPrefixLength = io.basalt.storage.cell.CellKeyCodec.rowPrefixLength(here);
    if (prev()) {
      if (io.basalt.storage.cell.CellKeyCodec.sharesPrefix(key.getData(), here, rowPrefixLength)) {
        return true;
      }
      if (next() && java.util.Arrays.equals(key.getData(), here)) {
        return false;
      }
    }
    // The first key of the family (a failed step unpositions the cursor), or a key put between the two steps.
    seek(here);
    return false;
  }

  @Override
  public boolean refresh() {
    return moved(cursor.getCurrent(key, moveData, LockMode.READ_UNCOMMITTED));
  }

  private boolean moved(OperationStatus status) {
    boolean found = status == OperationStatus.SUCCESS;
    valueRead = found && moveData != keysOnly;
    return found;
  }

  @Override
  public byte[] key() {
    return key.getData();
  }

  @Override
  public byte[] value() {
    if (valueRead) {
      return moveData.getData();
    }
    DatabaseEntry data = new DatabaseEntry();
    // The key is known: read it into a partial no-data entry, so JE does not copy it again for every cell.
    return cursor.getCurrent(noKey, data, LockMode.READ_UNCOMMITTED) == OperationStatus.SUCCESS ? data.getData() : null;
  }

  @Override
  public boolean put(byte[] k, byte[] value, int offset, int length) {
    DatabaseEntry ke = new DatabaseEntry(k);
    DatabaseEntry ve = new DatabaseEntry(value, offset, length);
    boolean added = cursor.put(ke, ve, Put.NO_OVERWRITE, null) != null;
    if (!added) {
      cursor.put(ke, ve, Put.OVERWRITE, null);
    }
    key.setData(k);
    valueRead = false;
    return added;
  }

  @Override
  public void delete() {
    cursor.delete();
    valueRead = false;
  }

  @Override
  public void flush() {
    // every put and delete went to JE at once
  }

  @Override
  public void close() {
    release.accept(cursor);
  }
}
