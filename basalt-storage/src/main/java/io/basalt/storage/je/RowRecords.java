package io.basalt.storage.je;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Put;
import io.basalt.storage.cell.CellKeyCodec;
import io.basalt.storage.schema.FamilySchema;
import java.util.Arrays;

/**
 * A JE cursor over one family's row records ({@link RowChunk}s, and in format 3 their {@link RowDelta}s), for a
 * {@link RowRecordCursor}: every step lands on a row's record and loads it as a chunk, the row's deltas merged in.
 * Keeps where JE's cursor stands relative to the last chunk loaded, so the next step is one JE step where it can be.
 *
 * <p>A delta is part of the row before it: forward steps skip deltas (their row's record merged them), backward
 * steps skip them to their row's record, which merges them.
 */
final class RowRecords {
  private final Cursor cursor;
  private final boolean writable;
  /** Where rows may have deltas (format 3): the schema their merge trims by; else null. */
  private final FamilySchema deltas;
  private final DatabaseEntry recordKey = new DatabaseEntry();
  private final DatabaseEntry recordData = new DatabaseEntry();
  private final DatabaseEntry keyOnly = Cursors.noData();
  /** JE's cursor sits on the loaded chunk's record (the row has no deltas), so its neighbours are one step away. */
  boolean onChunk;
  /**
   * JE's cursor sits on the record just after the chunk (and its deltas): a chunk not yet stored, or one whose row
   * was looked at for deltas.
   */
  boolean afterChunk;
  /** No record follows the chunk (and its deltas), which JE's cursor is then not on (a new last row, say). */
  boolean nothingAfter;
  /** The change in the region's stored cells from folds of deltas, to be counted when the transaction commits. */
  private long foldedCells;

  RowRecords(Cursor cursor, boolean writable, FamilySchema deltas) {
    this.cursor = cursor;
    this.writable = writable;
    this.deltas = deltas;
  }

  Cursor cursor() {
    return cursor;
  }

  boolean hasDeltas() {
    return deltas != null;
  }

  /** Forgets where JE's cursor is (after a write moved it). */
  void forget() {
    onChunk = false;
    afterChunk = false;
    nothingAfter = false;
  }

  // ---------------------------------------------------------------- steps, each loading the chunk it reaches (or null)

  /** The first row record at or after {@code key}. */
  RowChunk search(byte[] key) {
    recordKey.setData(key);
    return loaded(skipDeltas(cursor.getSearchKeyRange(recordKey, recordData, LockMode.READ_UNCOMMITTED)));
  }

  /** JE's cursor to the first record at or after {@code key}, reading its key only ({@link #seekedKey}). */
  boolean seek(byte[] key) {
    recordKey.setData(key);
    return cursor.getSearchKeyRange(recordKey, keyOnly, LockMode.READ_UNCOMMITTED) == OperationStatus.SUCCESS;
  }

  byte[] seekedKey() {
    return recordKey.getData();
  }

  RowChunk first() {
    return loaded(skipDeltas(cursor.getFirst(recordKey, recordData, LockMode.READ_UNCOMMITTED)));
  }

  RowChunk last() {
    return loadBackFrom(cursor.getLast(recordKey, keyOnly, LockMode.READ_UNCOMMITTED));
  }

  /** The row record after the loaded chunk's (JE's cursor is on it: {@link #onChunk}). */
  RowChunk next() {
    return loaded(skipDeltas(cursor.getNext(recordKey, recordData, LockMode.READ_UNCOMMITTED)));
  }

  /** The row record before the one JE's cursor is on, or before where a search left it. */
  RowChunk prev() {
    return loadBackFrom(cursor.getPrev(recordKey, keyOnly, LockMode.READ_UNCOMMITTED));
  }

  /** The record JE's cursor is on (after {@link #seek}, or {@link #afterChunk}): at most a delta's row. */
  RowChunk current() {
    return loadBackFrom(OperationStatus.SUCCESS);
  }

  /** The row record before {@code from}, the chunk last loaded (or a new one not stored yet). */
  RowChunk before(RowChunk from) {
    boolean single = from.deltaKeys == null;
    if (onChunk && single) {
      return prev();
    }
    if (afterChunk && single) {
      // On the record after it: one step back is the chunk's own record, unless it is not stored.
      if (from.recordKey == null) {
        return prev();
      }
      if (cursor.getPrev(recordKey, keyOnly, LockMode.READ_UNCOMMITTED) == OperationStatus.SUCCESS
          && Arrays.equals(recordKey.getData(), from.recordKey)) {
        return prev();
      }
    }
    if (nothingAfter && single && from.recordKey == null) {
      return last();
    }
    return seek(from.recordKey != null ? from.recordKey : from.rowPrefix) ? prev() : last();
  }

  /**
   * Key-only: whether a record of the row {@code rowPrefix} is stored, JE's cursor left on its first. If none is, JE's
   * cursor is after where it would be ({@link #afterChunk} or {@link #nothingAfter}), for a chunk not yet stored.
   */
  boolean seekRow(byte[] rowPrefix) {
    forget();
    boolean found = seek(rowPrefix);
    if (found && CellKeyCodec.startsWith(recordKey.getData(), rowPrefix)) {
      return true;
    }
    afterChunk = found;
    nothingAfter = !found;
    return false;
  }

  private OperationStatus skipDeltas(OperationStatus st) {
    while (deltas != null && st == OperationStatus.SUCCESS && RowDelta.isDelta(recordKey.getData())) {
      st = cursor.getNext(recordKey, recordData, LockMode.READ_UNCOMMITTED);
    }
    return st;
  }

  /** From a key-only step that reached {@code st}: back past any deltas to a record, then loads it. */
  private RowChunk loadBackFrom(OperationStatus st) {
    while (deltas != null && st == OperationStatus.SUCCESS && RowDelta.isDelta(recordKey.getData())) {
      st = cursor.getPrev(recordKey, keyOnly, LockMode.READ_UNCOMMITTED);
    }
    if (st == OperationStatus.SUCCESS) {
      st = cursor.getCurrent(recordKey, recordData, LockMode.READ_UNCOMMITTED);
    }
    return loaded(st);
  }

  private RowChunk loaded(OperationStatus status) {
    afterChunk = false;
    nothingAfter = false;
    if (status != OperationStatus.SUCCESS) {
      onChunk = false;
      return null;
    }
    RowChunk chunk = RowChunk.decode(recordKey.getData(), recordData.getData());
    onChunk = true;
    if (deltas != null && chunk.recordKey == chunk.rowPrefix) {
      mergeDeltas(chunk);
    }
    return chunk;
  }

  /**
   * Merges the deltas that follow {@code row}, a row's first record: key-only steps until a record that is not one
   * (usually the next row's, whose value is not read). JE's cursor is then after the row's records, or, for a writer
   * of a row without deltas, back on its record (so it is replaced where it is).
   */
  private void mergeDeltas(RowChunk row) {
    OperationStatus st;
    while ((st = cursor.getNext(recordKey, keyOnly, LockMode.READ_UNCOMMITTED)) == OperationStatus.SUCCESS
        && RowDelta.isDeltaOf(recordKey.getData(), row.rowPrefix)) {
      if (cursor.getCurrent(recordKey, recordData, LockMode.READ_UNCOMMITTED) == OperationStatus.SUCCESS) {
        byte[] data = recordData.getData();
        row.overlay(recordKey.getData(), RowDelta.decode(recordKey.getData(), data), deltas, RowDelta.nowOf(data));
      }
    }
    if (row.deltaKeys != null) {
      row.more = false; // deltas are written only to a row of one record
    } else if (writable) {
      // Back one step, unless a row came in between meanwhile: then a search.
      if (st != OperationStatus.SUCCESS
          || cursor.getPrev(recordKey, keyOnly, LockMode.READ_UNCOMMITTED) != OperationStatus.SUCCESS
          || !Arrays.equals(recordKey.getData(), row.recordKey)) {
        recordKey.setData(row.recordKey);
        onChunk = cursor.getSearchKey(recordKey, keyOnly, LockMode.READ_UNCOMMITTED) == OperationStatus.SUCCESS;
      }
      return;
    }
    onChunk = false;
    afterChunk = st == OperationStatus.SUCCESS;
    nothingAfter = !afterChunk;
  }

  // ---------------------------------------------------------------- writes

  /**
   * From JE's cursor on the first record of row {@code rowPrefix} ({@link #seekRow}): the sequence number the row's
   * next delta takes, or -1 if the row takes none (it is not a single record keyed by its prefix, or has
   * {@link RowDelta#MAX_PER_ROW} deltas already: then a put reads it and folds them). Keys only.
   */
  int nextDeltaSeq(byte[] rowPrefix) {
    forget();
    if (deltas == null || recordKey.getData().length != rowPrefix.length) {
      return -1; // format 2, or the row's first chunk emptied and went: its records are not one
    }
    int seq = 0;
    int n = 0;
    OperationStatus st;
    while ((st = cursor.getNext(recordKey, keyOnly, LockMode.READ_UNCOMMITTED)) == OperationStatus.SUCCESS
        && RowDelta.isDeltaOf(recordKey.getData(), rowPrefix)) {
      seq = RowDelta.seqOf(recordKey.getData());
      n++;
    }
    boolean wide = st == OperationStatus.SUCCESS && CellKeyCodec.startsWith(recordKey.getData(), rowPrefix);
    return n >= RowDelta.MAX_PER_ROW || wide ? -1 : seq + 1;
  }

  void putDelta(byte[] rowPrefix, int seq, RowChunk cells, long now) {
    forget();
    cursor.put(new DatabaseEntry(RowDelta.key(rowPrefix, seq)), new DatabaseEntry(RowDelta.encode(cells, now)),
        Put.OVERWRITE, null);
  }

  /**
   * Writes a changed chunk back (deleting its record if empty, cutting it into records of about {@code chunkBytes},
   * deleting the deltas merged into it); returns its last record's key. {@code onItsRecord}: JE's cursor is still on
   * the record the chunk was read from (a put's usual case: the row's only record), to replace or delete it there
   * without another search from the root of the tree.
   */
  byte[] store(RowChunk c, boolean onItsRecord, int chunkBytes) {
    forget();
    if (c.deltaKeys != null) {
      onItsRecord = false;
      for (byte[] k : c.deltaKeys) {
        recordKey.setData(k);
        if (cursor.getSearchKey(recordKey, keyOnly, LockMode.READ_UNCOMMITTED) == OperationStatus.SUCCESS) {
          cursor.delete();
        }
      }
      c.deltaKeys = null;
      foldedCells += c.foldedCells;
      c.foldedCells = 0;
    }
    if (c.size() == 0) {
      byte[] last = c.recordKey != null ? c.recordKey : c.rowPrefix;
      if (c.recordKey != null) {
        recordKey.setData(last);
        if (onItsRecord
            || cursor.getSearchKey(recordKey, keyOnly, LockMode.READ_UNCOMMITTED) == OperationStatus.SUCCESS) {
          cursor.delete();
        }
      }
      return last;
    }
    int[] cuts = c.cuts(chunkBytes);
    int from = 0;
    byte[] key = c.recordKey != null ? c.recordKey : c.rowPrefix;
    byte[] last = key;
    for (int p = 0; p <= cuts.length; p++) {
      int to = p < cuts.length ? cuts[p] : c.size();
      byte[] pieceKey = p == 0 ? key : c.key(from);
      DatabaseEntry data = new DatabaseEntry(c.encode(from, to, p < cuts.length || c.more));
      if (p > 0 || !onItsRecord || cursor.put(null, data, Put.CURRENT, null) == null) {
        cursor.put(new DatabaseEntry(pieceKey), data, Put.OVERWRITE, null);
      }
      last = pieceKey;
      from = to;
    }
    return last;
  }

  long takeFoldedCells() {
    long n = foldedCells;
    foldedCells = 0;
    return n;
  }
}
