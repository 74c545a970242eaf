package io.basalt.storage.je;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Put;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.cell.CellKeyCodec;
import io.basalt.storage.cell.CellType;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * {@link CellLayout#ROW_RECORDS}: the cells of a row (of one family) are one JE record, or a few for a wide row
 * ({@link RowChunk}), and this cursor walks their cells as if each were a record. A move within a chunk costs no
 * JE call; a move to the next chunk is one JE step that brings all of that chunk's cells at once.
 *
 * <p>Writes change the chunk in memory and store it when the cursor leaves it, or at {@link #flush} (the end of a
 * row's mutation) and {@link #close}: a row mutation rewrites each chunk it touches once, inside the caller's
 * transaction, under the row's write lock. A chunk over {@link #CHUNK_BYTES} is stored as several records.
 */
final class RowRecordCursor implements CellCursor {
  /**
   * Cells per record are capped so a put to a wide row rewrites at most this much (with its log write and
   * replication); a YCSB row of ten 100-byte fields is about 1.2 KB.
   */
  static final int CHUNK_BYTES = 16 << 10;

  private final Cursor cursor;
  /** Closes the JE cursor, or returns it to the pool it came from. */
  private final Consumer<Cursor> release;
  private final boolean writable;
  private final int chunkBytes;
  private final DatabaseEntry recordKey = new DatabaseEntry();
  private final DatabaseEntry keyOnly = Cursors.noData();
  /** The chunk the cursor is in (null: unpositioned). */
  private RowChunk chunk;
  private int pos;
  /** On a cell of {@link #chunk} (false after a failed move, or after a delete until the next move). */
  private boolean on;
  /** The cell at {@link #pos} was deleted: {@link #pos} already names the cell after it. */
  private boolean deletedHere;
  /** The JE cursor sits on {@link #chunk}'s record, so the neighbouring chunks are one step away. */
  private boolean jeOnChunk;
  /** {@link #chunk} holds changes not yet stored. */
  private boolean dirty;
  /** The key of the last record {@link #chunk} was stored as (past a flush that cut it into several). */
  private byte[] lastRecordKey;
  /**
   * A changed chunk not yet stored that the cursor stepped back from into the chunk before it (a put's version
   * check steps back one key, then forward again): the step forward returns to it without a JE search.
   */
  private RowChunk parked;
  /** JE's cursor sits on the record just after {@link #chunk}, a chunk not yet stored. */
  private boolean jeAfterChunk;
  /** No record follows {@link #chunk}, a chunk not yet stored (a new last row: what sequential loads write). */
  private boolean jeNothingAfter;
  /**
   * The key of the record JE's cursor sits on, where this cursor knows it (null: unknown, or unpositioned). A
   * writer going through rows in key order (a sequential batch, a load) finds the next row's record one JE step
   * from the last row's, where a search descends the tree from its root.
   */
  private byte[] jeAt;
  /** Whether that step is worth trying: cleared the first time another record lies between two of its rows. */
  private boolean stepToNextRow = true;
  private byte[] keyCache;

  RowRecordCursor(Cursor cursor, boolean writable, int chunkBytes, Consumer<Cursor> release) {
    this.cursor = cursor;
    this.release = release;
    this.writable = writable;
    this.chunkBytes = chunkBytes;
  }

  @Override
  public void valuesWithMoves(boolean withMoves) {
    // A chunk brings every value with it.
  }

  // ---------------------------------------------------------------- moves

  @Override
  public boolean seekInRow(byte[] key) {
    if (chunk != null && covers(key)) {
      int i = chunk.find(key);
      return i < chunk.size() ? enter(i) : nextChunk();
    }
    return search(key);
  }

  /**
   * A writer's chunk is current (it holds the row's lock, and its own writes are in it), so it seeks there too; a
   * reader's may be of another row's read, and is searched again.
   */
  @Override
  public boolean seek(byte[] key) {
    if (writable) {
      return seekInRow(key);
    }
    return search(key);
  }

  private boolean search(byte[] key) {
    leave();
    if (CellKeyCodec.isRowEnd(key)) {
      return jeSearch(key) ? enter(0) : off(); // every chunk before it holds only keys before it
    }
    int rowPrefixLength = CellKeyCodec.safeRowPrefixLength(key);
    if (rowPrefixLength > 0) {
      // Search the row's first chunk (usually its only one): the key's own search would land past it.
      byte[] rowPrefix = rowPrefixLength == key.length ? key : Arrays.copyOf(key, rowPrefixLength);
      if (!jeSearch(rowPrefix)) {
        return off();
      }
      if (!CellKeyCodec.startsWith(chunk.recordKey, rowPrefix) || rowPrefixLength == key.length) {
        return enter(0); // no such row, or its start: the first cell from here on
      }
      if (!chunk.more) {
        int i = chunk.find(key);
        return i < chunk.size() ? enter(i) : nextChunk();
      }
    }
    // The general case: the last chunk whose key is at or before the key may hold cells after it.
    if (!jeSearch(key)) {
      if (!jeLast()) {
        return off();
      }
    } else if (Arrays.equals(chunk.recordKey, key)) {
      return enter(0);
    } else if (!jePrev()) {
      return jeSearch(key) ? enter(0) : off(); // nothing before it (the failed step unpositioned JE's cursor)
    }
    int i = chunk.find(key);
    return i < chunk.size() ? enter(i) : nextChunk();
  }

  /** Whether {@link #chunk} holds every cell of the space from its first key up to and including {@code key}'s row. */
  private boolean covers(byte[] key) {
    byte[] rowPrefix = chunk.rowPrefix;
    return !chunk.more && CellKeyCodec.startsWith(key, rowPrefix)
        && (chunk.recordKey == null || Arrays.compareUnsigned(chunk.recordKey, key) <= 0);
  }

  @Override
  public boolean first() {
    leave();
    return jeFirst() ? enter(0) : off();
  }

  @Override
  public boolean last() {
    leave();
    return jeLast() ? enter(chunk.size() - 1) : off();
  }

  @Override
  public boolean next() {
    if (chunk == null) {
      return false;
    }
    int i = deletedHere ? pos : pos + 1;
    return i < chunk.size() ? enter(i) : nextChunk();
  }

  /**
   * At the end of a row's last chunk, answers without a JE step: the next record is another row's, and reading it
   * would cost its value (a log read on a cache miss). The chunk stays, so a put to the row that follows needs no
   * search either.
   */
  @Override
  public boolean nextInRow() {
    if (chunk == null) {
      return false;
    }
    int i = deletedHere ? pos : pos + 1;
    if (i < chunk.size()) {
      return enter(i);
    }
    if (!chunk.more) {
      on = false;
      deletedHere = false;
      keyCache = null;
      return false;
    }
    byte[] rowPrefix = chunk.rowPrefix;
    return nextChunk() && CellKeyCodec.startsWith(key(), rowPrefix);
  }

  @Override
  public boolean prev() {
    if (chunk == null) {
      return false;
    }
    int i = pos - 1;
    return i >= 0 ? enter(i) : previousChunk();
  }

  @Override
  public boolean prevInRow() {
    if (pos > 0 && (on || deletedHere)) {
      return enter(pos - 1);
    }
    if (chunk.recordKey == null || chunk.recordKey.length == chunk.rowPrefix.length) {
      return false; // the row's first chunk (keyed by the row prefix, or not stored yet): nothing before in the row
    }
    byte[] here = key();
    byte[] rowPrefix = chunk.rowPrefix;
    if (prev()) {
      if (CellKeyCodec.startsWith(key(), rowPrefix)) {
        return true; // an earlier chunk of the row
      }
      if (next() && Arrays.equals(key(), here)) {
        return false;
      }
    }
    seek(here);
    return false;
  }

  @Override
  public boolean refresh() {
    return on;
  }

  @Override
  public byte[] key() {
    if (keyCache == null) {
      keyCache = chunk.key(pos);
    }
    return keyCache;
  }

  @Override
  public byte[] value() {
    return on ? chunk.value(pos) : null;
  }

  /** The value stays in the record's bytes, which JE copied out for this chunk alone and nothing changes. */
  @Override
  public Cell cell(byte[] row, byte[] family, byte[] qualifier, long timestamp, CellType type) {
    return on ? chunk.cell(pos, row, family, qualifier, timestamp, type) : null;
  }

  private boolean enter(int i) {
    if (i < 0 || i >= chunk.size()) {
      return i < 0 ? previousChunk() : nextChunk(); // an empty chunk (only ever briefly, in a writer's memory)
    }
    pos = i;
    on = true;
    deletedHere = false;
    keyCache = null;
    return true;
  }

  private boolean off() {
    jeAt = null;
    chunk = null;
    on = false;
    deletedHere = false;
    jeOnChunk = false;
    jeAfterChunk = false;
    jeNothingAfter = false;
    keyCache = null;
    return false;
  }

  /** To the first cell of the chunk after this one. */
  private boolean nextChunk() {
    if (parked != null) {
      store();
      chunk = parked;
      parked = null;
      dirty = true;
      lastRecordKey = null;
      jeOnChunk = false; // JE's cursor is on the chunk before
      jeAfterChunk = false;
      jeNothingAfter = false;
      return enter(0);
    }
    byte[] after = leave();
    if (jeOnChunk) {
      return jeNext() ? enter(0) : off();
    }
    if (!jeSearch(after)) {
      return off();
    }
    if (Arrays.equals(chunk.recordKey, after)) {
      return jeNext() ? enter(0) : off();
    }
    return enter(0);
  }

  /** To the last cell of the chunk before this one. */
  private boolean previousChunk() {
    byte[] first = chunk.recordKey != null ? chunk.recordKey : chunk.rowPrefix;
    if (dirty && parked == null) {
      // Step back without storing the changes: the step forward that usually follows comes back to them.
      RowChunk changed = chunk;
      boolean found = jeOnChunk || jeAfterChunk ? jePrev() : jeNothingAfter || !jeSearch(first) ? jeLast() : jePrev();
      if (found) {
        parked = changed;
        dirty = false;
        return enter(chunk.size() - 1);
      }
      chunk = changed; // nothing before it; unpositioned, as after any failed move, until a seek, first or last
      on = false;
      return false;
    }
    leave();
    if (jeOnChunk) {
      return jePrev() ? enter(chunk.size() - 1) : off();
    }
    boolean found = jeSearch(first) ? jePrev() : jeLast();
    return found ? enter(chunk.size() - 1) : off();
  }

  // ---------------------------------------------------------------- writes

  @Override
  public boolean put(byte[] key, byte[] value, int offset, int length) {
    checkWritable();
    if (chunk == null || !covers(key)) {
      leave();
      locateForWrite(key, CellKeyCodec.rowPrefixOf(key));
    }
    int i = chunk.find(key);
    boolean added = !chunk.keyEquals(i, key);
    chunk.put(i, key, value, offset, length);
    dirty = true;
    pos = i;
    on = true;
    deletedHere = false;
    keyCache = key;
    return added;
  }

  /**
   * Loads the chunk a put of {@code key} goes to: the row's last at or before it, or a new first chunk. Only this
   * row's records are looked at: the caller holds its lock, while other rows' records may come and go meanwhile.
   */
  private void locateForWrite(byte[] key, byte[] rowPrefix) {
    boolean found = firstRecordFrom(rowPrefix);
    if (!found || !CellKeyCodec.startsWith(recordKey.getData(), rowPrefix)) {
      startRow(rowPrefix, false);
      // On the next row's record, or past the last: either way a step back from the new row is one JE step.
      jeAfterChunk = found;
      jeNothingAfter = !found;
      return;
    }
    loaded(OperationStatus.SUCCESS, true); // JE's cursor is on the row's first record
    if (Arrays.compareUnsigned(chunk.recordKey, key) > 0) {
      startRow(rowPrefix, true); // the row's first chunk emptied and went: a new one before the rest
      return;
    }
    while (chunk.more) {
      RowChunk here = chunk;
      if (!jeNext() || !CellKeyCodec.startsWith(chunk.recordKey, rowPrefix)
          || Arrays.compareUnsigned(chunk.recordKey, key) > 0) {
        chunk = here;
        jeOnChunk = false;
        return;
      }
    }
  }

  /**
   * Puts JE's cursor on the first record at or after {@code rowPrefix} (its key in {@link #recordKey}); false if there
   * is none. Key-only: for a new row that is the next row's record, whose value a put need not read. From a record
   * before the row (the row before's, just written) the answer is its successor unless that lies before the row:
   * a record in between belongs to neither row, whose locks the caller holds, so no search is needed.
   */
  private boolean firstRecordFrom(byte[] rowPrefix) {
    if (stepToNextRow && jeAt != null && Arrays.compareUnsigned(jeAt, rowPrefix) < 0) {
      if (cursor.getNext(recordKey, keyOnly, LockMode.READ_UNCOMMITTED) != OperationStatus.SUCCESS) {
        jeAt = null;
        return false; // nothing after a record before the row
      }
      if (Arrays.compareUnsigned(recordKey.getData(), rowPrefix) >= 0) {
        jeAt = recordKey.getData();
        return true;
      }
      stepToNextRow = false; // this writer's rows are not neighbours: search from now on
    }
    recordKey.setData(rowPrefix);
    boolean found = cursor.getSearchKeyRange(recordKey, keyOnly, LockMode.READ_UNCOMMITTED) == OperationStatus.SUCCESS;
    jeAt = found ? recordKey.getData() : null;
    return found;
  }

  private void startRow(byte[] rowPrefix, boolean more) {
    off();
    chunk = RowChunk.empty(rowPrefix, more);
    pos = 0;
  }

  @Override
  public void delete() {
    checkWritable();
    if (!on) {
      throw new IllegalStateException("delete without a current cell");
    }
    chunk.remove(pos);
    dirty = true;
    on = false;
    deletedHere = true;
    keyCache = null;
  }

  @Override
  public void flush() {
    byte[] last = store();
    storeParked();
    if (last != null && !Arrays.equals(last, chunk.recordKey)) {
      byte[] at = jeAt;
      off(); // stored under another key, or as several records: this chunk no longer stands for one record
      jeAt = at; // but JE's cursor is still on the record written last, from which the next row is a step away
    }
  }

  /** Stores what changed and lets go of the JE position; returns the key of the chunk's last record (or null). */
  private byte[] leave() {
    byte[] last = store();
    if (last == null && chunk != null) {
      last = lastRecordKey != null ? lastRecordKey : chunk.recordKey;
    }
    storeParked();
    return last;
  }

  private void storeParked() {
    if (parked != null) {
      RowChunk p = parked;
      parked = null;
      write(p);
    }
  }

  /** Stores {@link #chunk} if it changed; returns the key of its last record (null if unchanged). */
  private byte[] store() {
    if (!dirty) {
      return null;
    }
    dirty = false;
    lastRecordKey = write(chunk);
    return lastRecordKey;
  }

  /** Writes a changed chunk back (deleting its record if empty, cutting it if large); returns its last record's key. */
  private byte[] write(RowChunk c) {
    // JE's cursor is still on the record this chunk was read from (a put's usual case: the row's only record):
    // replace or delete it there, without another search from the root of the tree.
    boolean onItsRecord = jeOnChunk && c == chunk && c.recordKey != null;
    jeAt = null;
    jeOnChunk = false;
    jeAfterChunk = false;
    jeNothingAfter = false;
    byte[] last;
    if (c.size() == 0) {
      last = c.recordKey != null ? c.recordKey : c.rowPrefix;
      if (c.recordKey != null) {
        recordKey.setData(last);
        if (onItsRecord
            || cursor.getSearchKey(recordKey, noData(), LockMode.READ_UNCOMMITTED) == OperationStatus.SUCCESS) {
          cursor.delete();
        }
      }
      return last;
    }
    int[] cuts = c.cuts(chunkBytes);
    int from = 0;
    byte[] key = c.recordKey != null ? c.recordKey : c.rowPrefix;
    last = key;
    for (int p = 0; p <= cuts.length; p++) {
      int to = p < cuts.length ? cuts[p] : c.size();
      byte[] pieceKey = p == 0 ? key : c.key(from);
      DatabaseEntry data = new DatabaseEntry(c.encode(from, to, p < cuts.length || c.more));
      if (p > 0 || !onItsRecord || cursor.put(null, data, Put.CURRENT, null) == null) {
        cursor.put(new DatabaseEntry(pieceKey), data, Put.OVERWRITE, null);
      }
      jeAt = pieceKey; // a put leaves JE's cursor on the record it wrote
      last = pieceKey;
      from = to;
    }
    return last;
  }

  private static DatabaseEntry noData() {
    return Cursors.noData();
  }

  private void checkWritable() {
    if (!writable) {
      throw new UnsupportedOperationException("a read cursor does not write");
    }
  }

  // ---------------------------------------------------------------- JE steps, each loading the chunk it reaches

  // Each step moves JE's cursor key-only and reads the record's value in place (RecordValues, which says why); a
  // record deleted between the two is skipped, as JE's own steps skip it.

  private boolean jeSearch(byte[] key) {
    recordKey.setData(key);
    return loaded(cursor.getSearchKeyRange(recordKey, keyOnly, LockMode.READ_UNCOMMITTED), true);
  }

  private boolean jeFirst() {
    return loaded(cursor.getFirst(recordKey, keyOnly, LockMode.READ_UNCOMMITTED), true);
  }

  private boolean jeLast() {
    return loaded(cursor.getLast(recordKey, keyOnly, LockMode.READ_UNCOMMITTED), false);
  }

  private boolean jeNext() {
    return loaded(cursor.getNext(recordKey, keyOnly, LockMode.READ_UNCOMMITTED), true);
  }

  private boolean jePrev() {
    return loaded(cursor.getPrev(recordKey, keyOnly, LockMode.READ_UNCOMMITTED), false);
  }

  /** Loads the record JE's cursor reached ({@code status}), or the first live one beyond it ({@code forward} or back). */
  private boolean loaded(OperationStatus status, boolean forward) {
    on = false;
    deletedHere = false;
    keyCache = null;
    lastRecordKey = null;
    jeAfterChunk = false;
    jeNothingAfter = false;
    byte[] value = null;
    while (status == OperationStatus.SUCCESS && (value = RecordValues.current(cursor)) == null) {
      status = forward ? cursor.getNext(recordKey, keyOnly, LockMode.READ_UNCOMMITTED)
          : cursor.getPrev(recordKey, keyOnly, LockMode.READ_UNCOMMITTED);
    }
    if (status != OperationStatus.SUCCESS) {
      chunk = null;
      jeOnChunk = false;
      jeAt = null;
      return false;
    }
    jeAt = recordKey.getData();
    chunk = RowChunk.decode(recordKey.getData(), value);
    jeOnChunk = true;
    return true;
  }

  @Override
  public void close() {
    try {
      store();
      storeParked();
    } finally {
      release.accept(cursor);
    }
  }
}
