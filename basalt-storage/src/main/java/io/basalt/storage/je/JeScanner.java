package io.basalt.storage.je;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.cell.CellKeyCodec;
import io.basalt.storage.lock.RowLocks;
import io.basalt.storage.read.ReadFilter;
import io.basalt.storage.read.RegionScanner;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.ScanBudget;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.schema.KeyRange;
import java.util.ArrayList;
import java.util.List;

/**
 * A scan over a {@link JeRegion}. Between calls it keeps where to resume (a row bound), the rest of a row being
 * returned in batches, and its JE cursors (one per family), until the scan ends in the region or is closed; the
 * region closes them first if it closes a family database (JE refuses to with cursors open), and the next call
 * then opens fresh ones and seeks from the resume bound.
 *
 * <p>A forward scan searches the B+-tree once per family, not once per row or per call: the walk of a row leaves
 * each cursor on the first key past it, which is where the next row starts. That holds only while no write
 * changed the region's keys in between, which {@link JeRegion#changeCount} tells; else rows are sought.
 *
 * <p>Calls come on whichever RPC handler is free. JE's non-sticky {@code READ_UNCOMMITTED} cursors take no locks,
 * the one thing JE ties to the opening thread in a plain environment; calls on one scanner do not overlap
 * ({@code synchronized}). A replicated environment's cursor must be closed on the thread that opened it, so there
 * they are closed at the end of each call ({@link ReadCursors#outliveCalls}) and each call searches afresh.
 */
final class JeScanner implements RegionScanner {
  private final JeRegion region;
  private final ScanSpec spec;
  private final List<FamilyStore> families;
  private final ReadFilter filter;
  private final long now;
  private final RowReader reader;
  private byte[] rowToRead;
  /** Reads {@link #rowToRead}: one object for the scanner's life, where a lambda per row would capture the row. */
  private final RowLocks.Read<RowReader.Outcome> readRowToRead = () -> readRow(rowToRead);

  /** Next row bound to look from (forward: at/after; reversed: at/before); null = region edge. */
  private byte[] resumeRow;
  private boolean resumeInclusive;
  /** Bound past which the scan ends; null = region edge. */
  private final byte[] stopRow;
  private final boolean stopInclusive;

  /** Per family, the first key past the last row read in this batch (RowReader.END: none), or null. */
  private byte[][] nextKeys;
  /** Per family, the key the cursor is on, at or after the row nextRow chose (RowReader.END: none), or null. */
  private byte[][] starts;
  /** The region's change count before the cursors reached the positions in {@link #starts}. */
  private long startsChangeCount;
  /** False once a row's read has started, so a second (locked) attempt searches afresh. */
  private boolean startsUsable;
  private List<Cell> pending;
  private int pendingPos;
  private byte[] pendingRow;
  /** The read of the pending row, which says where HBase's scanner would stand after its last cell. */
  private RowReader.Outcome pendingRead;
  private int rowsReturned;
  /** Families the scan no longer reads, as HBase closes a store scanner whose filter gave out (see RowReader). */
  private final boolean[] closedFamilies;
  private boolean done;
  private boolean complete;
  /** Open between calls while the scan goes on in this region; null when none are. */
  private CellCursor[] cursors;

  JeScanner(JeRegion region, ScanSpec spec, List<FamilyStore> families) {
    this.region = region;
    this.spec = spec;
    this.families = families;
    this.closedFamilies = new boolean[families.size()];
    this.filter = spec.read().filter();
    this.now = region.now();
    this.reader = new RowReader(families, spec.read(), now, closedFamilies, spec.reversed());
    KeyRange range = region.descriptor().range();
    byte[] start = spec.startRow();
    boolean startInclusive = spec.startInclusive();
    byte[] stop = spec.stopRow();
    boolean stopIncl = spec.stopInclusive();
    if (!spec.reversed()) {
      if (range.start().length > 0 && (start.length == 0 || Bytes.compare(start, range.start()) < 0)) {
        start = range.start();
        startInclusive = true;
      }
      if (range.end().length > 0 && (stop.length == 0 || Bytes.compare(stop, range.end()) >= 0)) {
        stop = range.end();
        stopIncl = false;
      }
    } else {
      if (range.end().length > 0 && (start.length == 0 || Bytes.compare(start, range.end()) >= 0)) {
        start = range.end();
        startInclusive = false;
      }
      // The region's start row is inside it: clamp only a stop below it (an equal stop keeps its own inclusivity).
      if (range.start().length > 0 && (stop.length == 0 || Bytes.compare(stop, range.start()) < 0)) {
        stop = range.start();
        stopIncl = true;
      }
    }
    this.resumeRow = start.length == 0 ? null : start;
    this.resumeInclusive = startInclusive;
    this.stopRow = stop.length == 0 ? null : stop;
    this.stopInclusive = stopIncl;
    // HBase: a forward scan whose start equals its exclusive stop returns nothing.
    if (!spec.reversed() && resumeRow != null && stopRow != null) {
      int c = Bytes.compare(resumeRow, stopRow);
      if (c > 0 || c == 0 && !(resumeInclusive && stopInclusive)) {
        done = true;
      }
    }
  }

  @Override
  public boolean isDone() {
    return done && pending == null;
  }

  @Override
  public boolean isFilterDone() {
    return filter != null && filter.filterAllRemaining();
  }

  @Override
  public boolean isComplete() {
    return complete && pending == null;
  }

  @Override
  public List<RowResult> next(ScanBudget budget) {
    if (isDone()) {
      return List.of();
    }
    // The region's guard first, then this scanner: a region closing (guard held) takes this scanner's lock.
    return region.whileOpen(() -> {
      synchronized (this) {
        return nextOpen(budget);
      }
    });
  }

  private List<RowResult> nextOpen(ScanBudget budget) {
    int maxResults = Math.max(1, budget.maxResults());
    long maxBytes = budget.maxBytes();
    long deadlineNanos = budget.deadlineNanos();
    List<RowResult> out = new ArrayList<>(Math.min(maxResults, 128));
    long[] bytes = {0};
    int newRows = 0;
    int rowsRead = 0;
    if (cursors == null) {
      nextKeys = null; // fresh cursors sit nowhere yet
      startsChangeCount = region.changeCount();
      cursors = Cursors.open(families);
      region.holdsCursors(this);
    }
    starts = spec.reversed() ? null : new byte[families.size()][]; // nextRow fills every entry for each row
    boolean failed = true;
    try {
      while (out.size() < maxResults && (out.isEmpty() || bytes[0] < maxBytes)) {
        if (pending != null) {
          out.add(nextChunk(budget, bytes));
          continue;
        }
        if (done || budget.maxNewRows() > 0 && newRows >= budget.maxNewRows()) {
          break;
        }
        if (spec.limit() > 0 && rowsReturned >= spec.limit()) {
          done = true;
          complete = true;
          break;
        }
        if (filter != null && filter.filterAllRemaining()) {
          // Like HBase, a filter is per region: it ends this region's part; the next region starts afresh.
          done = true;
          break;
        }
        // Without a filter (which may take any time per row) the clock on the first row and every 8th: per row it was
        // 2% of a scan call.
        if (deadlineNanos != Long.MAX_VALUE && (filter != null || (rowsRead++ & 7) == 0)
            && System.nanoTime() - deadlineNanos > 0) {
          break;
        }
        byte[] row = nextRow();
        if (row == null || pastStop(row)) {
          done = true;
          break;
        }
        resumeRow = row;
        resumeInclusive = false;
        startsUsable = true;
        rowToRead = row;
        RowReader.Outcome outcome = filter != null
            ? readLocked(row)
            : region.rowLocks().readRow(row, readRowToRead);
        if (filter != null) {
          // HBase resets the filter after each row, before asking whether it is done: a filter whose reset
          // clears its state (ColumnCountGetFilter) goes on to the next row, one that keeps it (WhileMatchFilter) ends.
          filter.reset();
          if (filter.filterAllRemaining()) {
            done = true; // HBase's nextRaw then answers "no more in this region", whatever the call's caching
          }
        }
        nextKeys = spec.reversed() ? null : outcome.nextKeys();
        if (outcome.seekRow() != null && !spec.reversed()) {
          resumeRow = outcome.seekRow();
          resumeInclusive = true;
        }
        List<Cell> cells = outcome.cells();
        if (cells.isEmpty()) {
          continue;
        }
        rowsReturned++;
        newRows++;
        region.countRowRead();
        if (spec.limit() > 0 && rowsReturned >= spec.limit()) {
          done = true;
          complete = true;
        }
        pending = cells;
        pendingPos = 0;
        pendingRow = row;
        pendingRead = outcome;
      }
      failed = false;
    } finally {
      if (failed || done || !region.cursorsOutliveCalls()) {
        releaseCursors();
      }
    }
    int last = out.size() - 1;
    if (done && pending == null && last >= 0 && out.get(last).partial()) {
      // As HBase (HBASE-21206): a call that finds the region's end after a result cut at its row's last cell
      // says that result completes its row.
      RowResult r = out.get(last);
      out.set(last, new RowResult(r.row(), r.cells(), false));
    }
    return out;
  }

  /** Reads the row (under its lock, or optimistically), from the cursors' positions if no write moved keys. */
  private RowReader.Outcome readRow(byte[] row) {
    long changeCount = region.changeCount();
    byte[][] from = startsUsable && changeCount == startsChangeCount ? starts : null;
    startsUsable = false;
    startsChangeCount = changeCount;
    return RegionReads.readRowFiltered(reader, row, cursors, from);
  }

  /** Rows with a filter are read under the real read lock: a stateful filter must see each cell once. */
  private RowReader.Outcome readLocked(byte[] row) {
    return region.rowLocks().readLocked(row, readRowToRead);
  }

  /**
   * The next result from the row being returned: up to the scan's batch, and, when the budget may cut rows,
   * up to the cell that makes the call's size reach its limit (HBase checks the limit after adding a cell).
   */
  private RowResult nextChunk(ScanBudget budget, long[] bytes) {
    // As HBase: a filter that judges whole rows (hasFilterRow) must see them whole, so size never cuts them.
    boolean cutBySize = budget.cutRows() && (filter == null || !filter.hasFilterRow());
    int end = pendingPos;
    boolean cut = false;
    while (end < pending.size() && !cut) {
      bytes[0] += budget.cellSize().applyAsLong(pending.get(end));
      end++;
      cut = spec.batch() > 0 && end - pendingPos >= spec.batch() || cutBySize && bytes[0] >= budget.maxBytes();
    }
    // A whole row goes as the reader's list, which nothing changes after: no copy.
    List<Cell> chunk = pendingPos == 0 && end == pending.size() ? pending
        : List.copyOf(pending.subList(pendingPos, end));
    boolean cellsLeft = end < pending.size();
    // HBase's scanner, cut at the row's last visible cell, still says "more in this row" when its next key,
    // hidden or not (a deleted cell, an older version, a marker), is in the row: the client then counts the
    // row as done only at the next row, which decides where a scan with a limit ends.
    boolean more = cellsLeft || cut && keyFollows(pendingRow, pendingRead.after());
    RowResult r = new RowResult(pendingRow, chunk, more);
    if (cellsLeft) {
      pendingPos = end;
    } else {
      pending = null;
      pendingRow = null;
      pendingRead = null;
    }
    return r;
  }

  /**
   * Whether a key of {@code row} lies where HBase's scanner stands after the row's last cell ({@code after}),
   * in that family or a later one. Fresh cursors: the scan's own sit where its next row search expects them.
   */
  private boolean keyFollows(byte[] row, RowReader.After after) {
    if (after == null) {
      return false;
    }
    byte[] rowPrefix = CellKeyCodec.rowPrefix(row);
    CellCursor[] fresh = Cursors.open(families);
    try {
      for (int f = after.family(); f < fresh.length; f++) {
        boolean own = f == after.family();
        byte[] from = own ? after.from() : rowPrefix;
        if (from == null || closedFamilies[f]) {
          continue;
        }
        CellCursor c = fresh[f];
        c.valuesWithMoves(false);
        if (!c.seek(from)) {
          continue;
        }
        if (own && !after.inclusive() && java.util.Arrays.equals(c.key(), from) && !c.next()) {
          continue;
        }
        if (CellKeyCodec.startsWith(c.key(), rowPrefix)) {
          return true;
        }
      }
      return false;
    } finally {
      Cursors.close(fresh);
    }
  }

  private boolean pastStop(byte[] row) {
    if (stopRow == null) {
      return false;
    }
    int c = Bytes.compare(row, stopRow);
    if (spec.reversed()) {
      return stopInclusive ? c < 0 : c <= 0;
    }
    return stopInclusive ? c > 0 : c >= 0;
  }

  /**
   * The next row in scan order having a key in any selected family, or null. A forward scan also notes in
   * {@link #starts} where each cursor is: on the first key at or after that row.
   */
  private byte[] nextRow() {
    byte[] best = null;
    for (int f = 0; f < cursors.length; f++) {
      CellCursor c = cursors[f];
      byte[] known = nextKeys == null ? null : nextKeys[f];
      byte[] candidate;
      if (known == RowReader.END || closedFamilies[f]) {
        noteStart(f, RowReader.END);
        continue;
      } else if (known != null) {
        noteStart(f, known);
        candidate = CellKeyCodec.decodeRow(known);
      } else {
        c.valuesWithMoves(false);
        candidate = spec.reversed() ? previousRowIn(c) : nextRowIn(c);
        noteStart(f, candidate == null ? RowReader.END : c.key());
      }
      if (candidate == null) {
        continue;
      }
      if (best == null || (spec.reversed() ? Bytes.compare(candidate, best) > 0 : Bytes.compare(candidate, best) < 0)) {
        best = candidate;
      }
    }
    return best;
  }

  private void noteStart(int family, byte[] key) {
    if (starts != null) {
      starts[family] = key;
    }
  }

  private byte[] nextRowIn(CellCursor c) {
    boolean on;
    if (resumeRow == null) {
      on = c.first();
    } else {
      on = c.seek(resumeInclusive ? CellKeyCodec.rowPrefix(resumeRow) : CellKeyCodec.rowEnd(resumeRow));
    }
    return on ? CellKeyCodec.decodeRow(c.key()) : null;
  }

  private byte[] previousRowIn(CellCursor c) {
    boolean on;
    if (resumeRow == null) {
      on = c.last();
    } else {
      on = c.seek(resumeInclusive ? CellKeyCodec.rowEnd(resumeRow) : CellKeyCodec.rowPrefix(resumeRow));
      on = on ? c.prev() : c.last();
    }
    return on ? CellKeyCodec.decodeRow(c.key()) : null;
  }

  /** Closes the cursors; a later call (if the scan goes on) opens new ones and seeks where it left off. */
  synchronized void releaseCursors() {
    if (cursors != null) {
      Cursors.close(cursors);
      cursors = null;
      nextKeys = null;
      region.releasedCursors(this);
    }
  }

  @Override
  public synchronized void close() {
    done = true;
    pending = null;
    releaseCursors();
  }
}
