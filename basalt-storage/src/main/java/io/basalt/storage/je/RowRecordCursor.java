package io.basalt.storage.je;

import com.sleepycat.je.Cursor;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.cell.CellKeyCodec;
import io.basalt.storage.cell.CellType;
import io.basalt.storage.schema.FamilySchema;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@link CellLayout#ROW_RECORDS}: the cells of a row (of one family) are one JE record, or a few for a wide row
 * ({@link RowChunk}), and this cursor walks their cells as if each were a record. A move within a chunk costs no
 * JE call; a move to the next chunk is one JE step that brings all of that chunk's cells at once.
 *
 * <p>Writes change the chunk in memory and store it when the cursor leaves it, or at {@link #flush} (the end of a
 * row's mutation) and {@link #close}: a row mutation rewrites each chunk it touches once, inside the caller's
 * transaction, under the row's write lock. A chunk over {@link #CHUNK_BYTES} is stored as several records.
 *
 * <p>In format 3 a chunk may stand for a row's record with its {@link RowDelta}s merged in ({@link RowRecords});
 * storing it folds them. A puts-only mutation of a stored row writes a delta instead ({@link #putBlind}).
 */
final class RowRecordCursor implements CellCursor {
  /**
   * Cells per record are capped so a put to a wide row rewrites at most this much (with its log write and
   * replication); a YCSB row of ten 100-byte fields is about 1.2 KB.
   */
  static final int CHUNK_BYTES = 16 << 10;

  private final RowRecords records;
  /** Closes the JE cursor, or returns it to the pool it came from. */
  private final Consumer<Cursor> release;
  private final boolean writable;
  private final int chunkBytes;
  /** The chunk the cursor is in (null: unpositioned). */
  private RowChunk chunk;
  private int pos;
  /** On a cell of {@link #chunk} (false after a failed move, or after a delete until the next move). */
  private boolean on;
  /** The cell at {@link #pos} was deleted: {@link #pos} already names the cell after it. */
  private boolean deletedHere;
  /** {@link #chunk} holds changes not yet stored. */
  private boolean dirty;
  /** The key of the last record {@link #chunk} was stored as (past a flush that cut it into several). */
  private byte[] lastRecordKey;
  /**
   * A changed chunk not yet stored that the cursor stepped back from into the chunk before it (a put's version
   * check steps back one key, then forward again): the step forward returns to it without a JE search.
   */
  private RowChunk parked;
  private byte[] keyCache;

  /** {@code deltas}: the family's schema where rows may have {@link RowDelta}s, else null. */
  RowRecordCursor(Cursor cursor, boolean writable, int chunkBytes, FamilySchema deltas, Consumer<Cursor> release) {
    this.records = new RowRecords(cursor, writable, deltas);
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
    if (!records.seek(key)) {
      if (!jeLast()) {
        return off();
      }
    } else if (Arrays.equals(records.seekedKey(), key)) {
      return loaded(records.current()) ? enter(0) : off();
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
    chunk = null;
    on = false;
    deletedHere = false;
    records.forget();
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
      records.forget(); // JE's cursor is on the chunk before
      return enter(0);
    }
    byte[] after = leave();
    if (!records.onChunk && !records.afterChunk && !records.nothingAfter) {
      if (!jeSearch(after)) {
        return off();
      }
      if (!Arrays.equals(chunk.recordKey, after)) {
        return enter(0);
      }
      // back on the chunk left: step from there
    }
    if (records.onChunk) {
      return jeNext() ? enter(0) : off();
    }
    return records.afterChunk && loaded(records.current()) ? enter(0) : off();
  }

  /** To the last cell of the chunk before this one. */
  private boolean previousChunk() {
    if (dirty && parked == null) {
      // Step back without storing the changes: the step forward that usually follows comes back to them.
      RowChunk changed = chunk;
      boolean found = loaded(records.before(changed));
      if (found) {
        parked = changed;
        dirty = false;
        return enter(chunk.size() - 1);
      }
      chunk = changed; // nothing before it; unpositioned, as after any failed move, until a seek, first or last
      on = false;
      return false;
    }
    RowChunk from = chunk;
    leave();
    return loaded(records.before(from)) ? enter(chunk.size() - 1) : off();
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
    // Key-only: for a new row the search lands on the next row's record, whose value it need not read. JE's cursor is
    // then on it, or past the last: either way a step back from the new row is one JE step.
    if (!records.seekRow(rowPrefix)) {
      startRow(rowPrefix, false);
      return;
    }
    loaded(records.current());
    if (chunk.deltaKeys != null) {
      dirty = true; // read anyway: stored folded with the writes that follow
    }
    if (Arrays.compareUnsigned(chunk.recordKey, key) > 0) {
      startRow(rowPrefix, true); // the row's first chunk emptied and went: a new one before the rest
      return;
    }
    while (chunk.more) {
      RowChunk here = chunk;
      if (!jeNext() || !CellKeyCodec.startsWith(chunk.recordKey, rowPrefix)
          || Arrays.compareUnsigned(chunk.recordKey, key) > 0) {
        chunk = here;
        records.forget();
        return;
      }
    }
  }

  /**
   * Writes {@code cells} (puts of one row, the family's share of a puts-only mutation) as a {@link RowDelta} if the
   * row is stored as a single record with fewer than {@link RowDelta#MAX_PER_ROW} deltas: looks at keys only, never
   * at the row's record. Returns the number of cells written, or -1 when the caller must put them one by one (the row
   * is new, wide or has too many deltas); for a new row the cursor is then ready for those puts without a search.
   */
  @Override
  public long putBlind(byte[] rowPrefix, List<Cell> cells, long now) {
    checkWritable();
    if (!records.hasDeltas()) {
      return -1;
    }
    leave();
    off();
    if (!records.seekRow(rowPrefix)) {
      startRow(rowPrefix, false); // a new row: JE's cursor is where seekRow left it
      return -1;
    }
    int seq = records.nextDeltaSeq(rowPrefix);
    if (seq < 0) {
      return -1;
    }
    RowChunk delta = RowChunk.empty(rowPrefix, false);
    for (Cell c : cells) {
      byte[] key = CellKeyCodec.encode(c);
      delta.put(delta.find(key), key, c.valueArray(), c.valueOffset(), c.valueLength());
    }
    if (delta.cuts(chunkBytes).length > 0) {
      return -1;
    }
    records.putDelta(rowPrefix, seq, delta, now);
    return delta.size();
  }

  @Override
  public boolean rowHasBlindPuts() {
    return chunk != null && chunk.deltaKeys != null;
  }

  @Override
  public void foldRow() {
    checkWritable();
    if (rowHasBlindPuts()) {
      dirty = true;
    }
  }

  @Override
  public long takeFoldedCells() {
    return records.takeFoldedCells();
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
      off(); // stored under another key, or as several records: this chunk no longer stands for one record
    }
  }

  /** Stores what changed and lets go of the JE position; returns the key of the chunk's last record (or null). */
  private byte[] leave() {
    byte[] last = store();
    if (last == null && chunk != null) {
      last = lastRecordKey != null ? lastRecordKey
          : chunk.deltaKeys != null ? chunk.deltaKeys.get(chunk.deltaKeys.size() - 1) : chunk.recordKey;
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

  /** Writes a changed chunk back; returns its last record's key. */
  private byte[] write(RowChunk c) {
    return records.store(c, records.onChunk && c == chunk && c.recordKey != null, chunkBytes);
  }

  private void checkWritable() {
    if (!writable) {
      throw new UnsupportedOperationException("a read cursor does not write");
    }
  }

  // ---------------------------------------------------------------- JE steps, each loading the chunk it reaches

  private boolean jeSearch(byte[] key) {
    return loaded(records.search(key));
  }

  private boolean jeFirst() {
    return loaded(records.first());
  }

  private boolean jeLast() {
    return loaded(records.last());
  }

  private boolean jeNext() {
    return loaded(records.next());
  }

  private boolean jePrev() {
    return loaded(records.prev());
  }

  private boolean loaded(RowChunk reached) {
    on = false;
    deletedHere = false;
    keyCache = null;
    lastRecordKey = null;
    chunk = reached;
    return reached != null;
  }

  @Override
  public void close() {
    try {
      store();
      storeParked();
    } finally {
      release.accept(records.cursor());
    }
  }
}
