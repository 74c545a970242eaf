package io.basalt.storage.model;

import io.basalt.storage.cell.Cell;
import io.basalt.storage.cell.CellType;
import io.basalt.storage.mutation.CompareOp;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeepDeletedCells;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A slow, obviously-correct Basalt store: one flat list holding every stored cell (puts and delete
 * markers of all rows and families), with every rule evaluated by brute force over that list. It shares no
 * code with the store's read path (no cursors, no key codec, no VersionTracker); it only uses the store's
 * value types (Cell, RowMutation, FamilySchema) to take input and give answers.
 *
 * <p>Rules (the store's documented semantics):
 * <ul>
 *   <li>Stored cells are identified by (row, family, qualifier, timestamp, type); writing the same
 *       identity again replaces the value. Family markers have no qualifier.</li>
 *   <li>LATEST means the clock's "now", except for a single-version delete, where the n-th such delete of
 *       a column in one mutation takes the timestamp of the n-th newest version a default read sees (or
 *       "now" if there are fewer), resolved before any cell of the mutation is written.</li>
 *   <li>After each write, every column that received a put keeps only what a major compaction keeps:
 *       walking its puts newest first, a put masked by any marker of its row and family is dropped (unless
 *       KEEP_DELETED_CELLS, where it counts like any other put), the others are survivors and survivors
 *       past the family's VERSIONS are dropped. Markers are never dropped.</li>
 *   <li>A read sees, per column, the survivors (same rule over what is stored now) inside its time range
 *       that are not masked for it (KEEP_DELETED_CELLS: only markers whose own timestamp is inside the
 *       time range mask), at most maxVersions of them.</li>
 * </ul>
 */
final class ReferenceModel {
  /** Thrown when an increment meets a value that is not an 8-byte counter; nothing was written. */
  static final class NotACounter extends RuntimeException {
    NotACounter(String message) {
      super(message);
    }
  }

  /** One column of a read: a family and either one qualifier or (qualifier null) the whole family. */
  record Col(byte[] family, byte[] qualifier) {
    @Override
    public String toString() {
      return ModelBytes.show(family) + (qualifier == null ? ":*" : ":" + ModelBytes.show(qualifier));
    }
  }

  /**
   * What a get or one scanned row reads. {@code columns} empty means all families. {@code min}/{@code max}
   * is the half-open time range; {@code familyOverride} (null for none) gets {@code [fmin, fmax)} instead.
   * {@code familyLimit} below 0 means no per-family limit.
   */
  record Query(List<Col> columns, long min, long max, byte[] familyOverride, long fmin, long fmax, int maxVersions,
      int familyLimit, int familyOffset) {
    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder();
      sb.append(columns.isEmpty() ? "all" : columns.toString()).append(" [").append(ModelBytes.ts(min)).append(',')
          .append(ModelBytes.ts(max)).append(')');
      if (familyOverride != null) {
        sb.append(" ").append(ModelBytes.show(familyOverride)).append("@[").append(ModelBytes.ts(fmin)).append(',')
            .append(ModelBytes.ts(fmax)).append(')');
      }
      sb.append(" v").append(maxVersions);
      if (familyLimit >= 0 || familyOffset > 0) {
        sb.append(" perFamily ").append(familyOffset).append('+').append(familyLimit);
      }
      return sb.toString();
    }
  }

  private final List<FamilySchema> families;
  private final List<Cell> stored = new ArrayList<>();

  ReferenceModel(List<FamilySchema> schemas) {
    families = new ArrayList<>(schemas);
    families.sort((x, y) -> ModelBytes.compare(x.name(), y.name()));
  }

  /** Every stored cell of a row, puts and markers, sorted by family, qualifier and newest first: for messages. */
  List<Cell> storedCells(byte[] row) {
    List<Cell> copy = rowCells(row);
    copy.sort(Comparator.comparing(Cell::row, ModelBytes::compare).thenComparing(Cell::family, ModelBytes::compare)
        .thenComparing(Cell::qualifier, ModelBytes::compare).thenComparing(Comparator.comparingLong(Cell::timestamp).reversed())
        .thenComparing(c -> -c.type().code()));
    return copy;
  }

  private FamilySchema schema(byte[] family) {
    for (FamilySchema f : families) {
      if (Arrays.equals(f.name(), family)) {
        return f;
      }
    }
    throw new IllegalArgumentException("no family " + ModelBytes.show(family));
  }

  private static boolean keepsDeleted(FamilySchema f) {
    return f.keepDeletedCells() == KeepDeletedCells.TRUE || f.keepDeletedCells() == KeepDeletedCells.TTL;
  }

  private static boolean inRange(long ts, long min, long max) {
    return min <= ts && ts < max;
  }

  // ------------------------------------------------------------------------------------------ the rules

  /** Does {@code marker} hide {@code put}? Both are of the same row and family. */
  private static boolean hides(Cell marker, Cell put) {
    long m = marker.timestamp();
    long p = put.timestamp();
    switch (marker.type()) {
      case DELETE_FAMILY:
        return p <= m;
      case DELETE_FAMILY_VERSION:
        return p == m;
      case DELETE_COLUMN:
        return Arrays.equals(marker.qualifier(), put.qualifier()) && p <= m;
      case DELETE:
        return Arrays.equals(marker.qualifier(), put.qualifier()) && p == m;
      default:
        return false;
    }
  }

  /** Every stored cell of one row (one pass over the flat list; the rules below then look only at these). */
  private List<Cell> rowCells(byte[] row) {
    List<Cell> out = new ArrayList<>();
    for (Cell c : stored) {
      if (Arrays.equals(c.row(), row)) {
        out.add(c);
      }
    }
    return out;
  }

  private static List<Cell> markers(List<Cell> rowCells, byte[] family) {
    List<Cell> out = new ArrayList<>();
    for (Cell c : rowCells) {
      if (c.type() != CellType.PUT && Arrays.equals(c.family(), family)) {
        out.add(c);
      }
    }
    return out;
  }

  private static boolean hiddenByAny(List<Cell> markers, Cell put) {
    for (Cell m : markers) {
      if (hides(m, put)) {
        return true;
      }
    }
    return false;
  }

  /** Puts of one column, newest first. */
  private static List<Cell> puts(List<Cell> rowCells, byte[] family, byte[] qualifier) {
    List<Cell> out = new ArrayList<>();
    for (Cell c : rowCells) {
      if (c.type() == CellType.PUT && Arrays.equals(c.family(), family) && Arrays.equals(c.qualifier(), qualifier)) {
        out.add(c);
      }
    }
    out.sort((x, y) -> Long.compare(y.timestamp(), x.timestamp()));
    return out;
  }

  /** The puts of one column a major compaction would keep, newest first. */
  private List<Cell> survivors(List<Cell> rowCells, byte[] family, byte[] qualifier) {
    FamilySchema schema = schema(family);
    List<Cell> markers = markers(rowCells, family);
    List<Cell> out = new ArrayList<>();
    for (Cell p : puts(rowCells, family, qualifier)) {
      if (!keepsDeleted(schema) && hiddenByAny(markers, p)) {
        continue;
      }
      if (out.size() == schema.maxVersions()) {
        break;
      }
      out.add(p);
    }
    return out;
  }

  /** The versions of one column a read with this time range and version count returns, newest first. */
  private List<Cell> visible(List<Cell> rowCells, byte[] family, byte[] qualifier, long min, long max, int maxVersions) {
    FamilySchema schema = schema(family);
    List<Cell> readMarkers = new ArrayList<>();
    for (Cell m : markers(rowCells, family)) {
      // Without KEEP_DELETED_CELLS every marker masks (the survivors are already unmasked anyway).
      if (!keepsDeleted(schema) || inRange(m.timestamp(), min, max)) {
        readMarkers.add(m);
      }
    }
    List<Cell> out = new ArrayList<>();
    for (Cell p : survivors(rowCells, family, qualifier)) {
      if (out.size() == maxVersions) {
        break;
      }
      if (inRange(p.timestamp(), min, max) && !hiddenByAny(readMarkers, p)) {
        out.add(p);
      }
    }
    return out;
  }

  /** The newest version a default read (all time, one version) sees, or null. */
  private Cell newest(byte[] row, byte[] family, byte[] qualifier) {
    List<Cell> v = visible(rowCells(row), family, qualifier, 0, Long.MAX_VALUE, 1);
    return v.isEmpty() ? null : v.get(0);
  }

  // ------------------------------------------------------------------------------------------ writes

  void mutate(RowMutation mutation, long now) {
    Map<String, Integer> latestDeletes = new HashMap<>();
    List<Cell> resolved = new ArrayList<>();
    for (Cell c : mutation.cells()) {
      schema(c.family());
      long ts = c.timestamp();
      if (ts == RowMutation.LATEST) {
        ts = now;
        if (c.type() == CellType.DELETE) {
          String column = ModelBytes.hex(c.family()) + "/" + ModelBytes.hex(c.qualifier());
          int nth = latestDeletes.merge(column, 1, Integer::sum);
          List<Cell> versions = visible(rowCells(c.row()), c.family(), c.qualifier(), 0, Long.MAX_VALUE, nth);
          if (versions.size() == nth) {
            ts = versions.get(nth - 1).timestamp();
          }
        }
      }
      byte[] qualifier = c.type().isFamilyMarker() ? new byte[0] : c.qualifier();
      byte[] value = c.type() == CellType.PUT ? c.value() : new byte[0];
      resolved.add(new Cell(c.row(), c.family(), qualifier, ts, c.type(), value));
    }
    write(resolved);
  }

  private static boolean sameIdentity(Cell a, Cell b) {
    return a.type() == b.type() && a.timestamp() == b.timestamp() && Arrays.equals(a.row(), b.row())
        && Arrays.equals(a.family(), b.family()) && Arrays.equals(a.qualifier(), b.qualifier());
  }

  /** Stores cells whose timestamps are final, then compacts each column that got a put. */
  private void write(List<Cell> cells) {
    for (Cell c : cells) {
      stored.removeIf(s -> sameIdentity(s, c));
      stored.add(c);
    }
    for (Cell c : cells) {
      if (c.type() == CellType.PUT) {
        compactColumn(c.row(), c.family(), c.qualifier());
      }
    }
  }

  private void compactColumn(byte[] row, byte[] family, byte[] qualifier) {
    Set<Cell> keep = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    keep.addAll(survivors(rowCells(row), family, qualifier));
    stored.removeIf(s -> s.type() == CellType.PUT && Arrays.equals(s.row(), row) && Arrays.equals(s.family(), family)
        && Arrays.equals(s.qualifier(), qualifier) && !keep.contains(s));
  }

  /** One column of an increment or append. */
  record Change(byte[] family, byte[] qualifier, long delta, byte[] suffix) {}

  /**
   * Increments ({@code suffix} null) or appends to distinct columns of one row; returns the new cells in
   * family/qualifier order. Each new cell is at "now", or just above the version it replaces if that is newer.
   */
  List<Cell> readModifyWrite(byte[] row, List<Change> changes, long now) {
    List<Cell> fresh = new ArrayList<>();
    for (Change ch : changes) {
      schema(ch.family());
      Cell old = newest(row, ch.family(), ch.qualifier());
      long ts = old == null ? now : Math.max(now, old.timestamp() + 1);
      byte[] value;
      if (ch.suffix() == null) {
        long base = 0;
        if (old != null) {
          if (old.value().length != 8) {
            throw new NotACounter(ModelBytes.show(ch.family()) + ":" + ModelBytes.show(ch.qualifier()) + " holds "
                + old.value().length + " bytes");
          }
          base = ModelBytes.toLong(old.value());
        }
        value = ModelBytes.ofLong(base + ch.delta());
      } else {
        value = old == null ? ch.suffix().clone() : ModelBytes.concat(old.value(), ch.suffix());
      }
      fresh.add(new Cell(row, ch.family(), ch.qualifier(), ts, CellType.PUT, value));
    }
    write(fresh);
    List<Cell> sorted = new ArrayList<>(fresh);
    sorted.sort(Comparator.comparing(Cell::family, ModelBytes::compare).thenComparing(Cell::qualifier, ModelBytes::compare));
    return sorted;
  }

  /**
   * HBase's column check: {@code value OP newest}. A null or empty value asks about existence: a missing
   * column passes for every operator but NOT_EQUAL; a present one passes when "its value is empty" equals
   * "the operator is not NOT_EQUAL". Otherwise a missing column fails.
   */
  boolean checkAndMutate(byte[] row, byte[] family, byte[] qualifier, CompareOp op, byte[] value, RowMutation mutation,
      long now) {
    Cell current = newest(row, family, qualifier);
    boolean pass;
    if (value == null || value.length == 0) {
      boolean wantsEmptyOrMissing = op != CompareOp.NOT_EQUAL;
      pass = current == null ? wantsEmptyOrMissing : (current.value().length == 0) == wantsEmptyOrMissing;
    } else if (current == null) {
      pass = false;
    } else {
      int cmp = ModelBytes.compare(value, current.value());
      switch (op) {
        case LESS -> pass = cmp < 0;
        case LESS_OR_EQUAL -> pass = cmp <= 0;
        case EQUAL -> pass = cmp == 0;
        case NOT_EQUAL -> pass = cmp != 0;
        case GREATER_OR_EQUAL -> pass = cmp >= 0;
        case GREATER -> pass = cmp > 0;
        default -> pass = false;
      }
    }
    if (pass && current != null && current.timestamp() > now) {
      // As HBase (HBASE-14054): puts at LATEST are never older than the cell the check read.
      RowMutation.Builder later = RowMutation.of(mutation.row());
      for (Cell c : mutation.cells()) {
        boolean latestPut = c.type() == CellType.PUT && c.timestamp() == RowMutation.LATEST;
        later.add(latestPut ? c.withTimestamp(current.timestamp()) : c);
      }
      mutation = later.build();
    }
    if (pass) {
      mutate(mutation, now);
    }
    return pass;
  }

  // ------------------------------------------------------------------------------------------ reads

  /** The cells of one row a read returns: families, then qualifiers in byte order, newest first. */
  List<Cell> get(byte[] row, Query q) {
    // Which families, and which qualifiers of each (null = all); naming a whole family wins over columns.
    Map<String, List<byte[]>> wanted = new LinkedHashMap<>();
    Map<String, Boolean> wholeFamily = new HashMap<>();
    for (Col col : q.columns()) {
      String f = ModelBytes.hex(col.family());
      wanted.computeIfAbsent(f, k -> new ArrayList<>());
      if (col.qualifier() == null) {
        wholeFamily.put(f, true);
      } else {
        wanted.get(f).add(col.qualifier());
      }
    }
    List<Cell> cells = rowCells(row);
    List<Cell> out = new ArrayList<>();
    for (FamilySchema fam : families) {
      String f = ModelBytes.hex(fam.name());
      if (!q.columns().isEmpty() && !wanted.containsKey(f)) {
        continue;
      }
      boolean all = q.columns().isEmpty() || wholeFamily.containsKey(f);
      List<byte[]> qualifiers = new ArrayList<>();
      for (Cell c : cells) {
        if (c.type() == CellType.PUT && Arrays.equals(c.family(), fam.name())
            && (all || wanted.get(f).stream().anyMatch(w -> Arrays.equals(w, c.qualifier())))
            && qualifiers.stream().noneMatch(x -> Arrays.equals(x, c.qualifier()))) {
          qualifiers.add(c.qualifier());
        }
      }
      qualifiers.sort(ModelBytes::compare);
      boolean override = q.familyOverride() != null && Arrays.equals(q.familyOverride(), fam.name());
      long min = override ? q.fmin() : q.min();
      long max = override ? q.fmax() : q.max();
      List<Cell> familyCells = new ArrayList<>();
      for (byte[] qualifier : qualifiers) {
        familyCells.addAll(visible(cells, fam.name(), qualifier, min, max, q.maxVersions()));
      }
      int from = Math.min(q.familyOffset(), familyCells.size());
      int to = q.familyLimit() < 0 ? familyCells.size() : Math.min(familyCells.size(), from + q.familyLimit());
      out.addAll(familyCells.subList(from, to));
    }
    return out;
  }

  /** A scan's bounds and shape; an empty start or stop is unbounded. */
  record Scan(byte[] start, boolean startInclusive, byte[] stop, boolean stopInclusive, boolean reversed, int limit,
      int batch, Query query) {
    @Override
    public String toString() {
      return (reversed ? "reversed " : "") + (startInclusive ? "[" : "(") + ModelBytes.show(start) + ", "
          + ModelBytes.show(stop) + (stopInclusive ? "]" : ")") + " limit " + limit + " batch " + batch + " " + query;
    }
  }

  List<RowResult> scan(Scan s) {
    List<byte[]> rows = new ArrayList<>();
    for (Cell c : stored) {
      if (rows.stream().noneMatch(r -> Arrays.equals(r, c.row()))) {
        rows.add(c.row());
      }
    }
    rows.sort(s.reversed() ? (x, y) -> ModelBytes.compare(y, x) : ModelBytes::compare);
    List<RowResult> out = new ArrayList<>();
    int rowsReturned = 0;
    for (byte[] row : rows) {
      if (!withinBounds(s, row)) {
        continue;
      }
      if (s.limit() > 0 && rowsReturned == s.limit()) {
        break;
      }
      List<Cell> cells = get(row, s.query());
      if (cells.isEmpty()) {
        continue;
      }
      rowsReturned++;
      if (s.batch() == 0) {
        out.add(new RowResult(row, cells, false));
        continue;
      }
      for (int i = 0; i < cells.size(); i += s.batch()) {
        int end = Math.min(i + s.batch(), cells.size());
        out.add(new RowResult(row, new ArrayList<>(cells.subList(i, end)), end < cells.size()));
      }
    }
    return out;
  }

  /** Forward: start is the low bound and stop the high one; reversed: the other way round. */
  private static boolean withinBounds(Scan s, byte[] row) {
    byte[] low = s.reversed() ? s.stop() : s.start();
    boolean lowInclusive = s.reversed() ? s.stopInclusive() : s.startInclusive();
    byte[] high = s.reversed() ? s.start() : s.stop();
    boolean highInclusive = s.reversed() ? s.startInclusive() : s.stopInclusive();
    if (low.length > 0) {
      int c = ModelBytes.compare(row, low);
      if (c < 0 || (c == 0 && !lowInclusive)) {
        return false;
      }
    }
    if (high.length > 0) {
      int c = ModelBytes.compare(row, high);
      if (c > 0 || (c == 0 && !highInclusive)) {
        return false;
      }
    }
    return true;
  }
}
