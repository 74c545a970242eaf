package io.basalt.storage.model;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.cell.CellType;
import io.basalt.storage.mutation.CompareOp;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.TimeRange;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeepDeletedCells;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A deliberately naive HBase cell store: a flat list of every stored cell, and each rule applied by brute
 * force (no cursors, no streaming), so it can judge the real store. Semantics are the documented ones:
 * deletes mask by timestamp and stay; versions beyond VERSIONS are dropped as each put is written.
 */
final class ReferenceModel {
  private final List<FamilySchema> families;
  private final List<Cell> stored = new ArrayList<>();

  ReferenceModel(List<FamilySchema> families) {
    this.families = new ArrayList<>(families);
    this.families.sort((a, b) -> Bytes.compare(a.name(), b.name()));
  }

  private FamilySchema schema(byte[] family) {
    return families.stream().filter(f -> Bytes.compare(f.name(), family) == 0).findFirst().orElseThrow();
  }

  private static boolean same(byte[] a, byte[] b) {
    return Bytes.compare(a, b) == 0;
  }

  // ------------------------------------------------------------------ writes

  void mutate(RowMutation m, long now) {
    List<Cell> resolved = new ArrayList<>();
    Map<String, Integer> latestDeletes = new java.util.HashMap<>();
    for (Cell c : m.cells()) {
      long ts = c.timestamp();
      if (ts == RowMutation.LATEST) {
        ts = now;
        if (c.type() == CellType.DELETE) {
          int nth = latestDeletes.merge(new String(c.family()) + "/" + java.util.Arrays.toString(c.qualifier()), 1, Integer::sum);
          List<Cell> latest = visible(c.row(), c.family(), c.qualifier(), TimeRange.ALL, nth);
          if (latest.size() >= nth) {
            ts = latest.get(nth - 1).timestamp();
          }
        }
      }
      byte[] q = c.type().isFamilyMarker() ? Bytes.EMPTY : c.qualifier();
      resolved.add(new Cell(c.row(), c.family(), q, ts, c.type(), c.type() == CellType.PUT ? c.value() : Bytes.EMPTY));
    }
    for (Cell c : resolved) {
      stored.removeIf(s -> sameKey(s, c));
      stored.add(c);
    }
    for (Cell c : resolved) {
      if (c.type() == CellType.PUT) {
        trim(c.row(), c.family(), c.qualifier());
      }
    }
  }

  private static boolean sameKey(Cell a, Cell b) {
    return same(a.row(), b.row()) && same(a.family(), b.family()) && same(a.qualifier(), b.qualifier())
        && a.timestamp() == b.timestamp() && a.type() == b.type();
  }

  /** What a compaction keeps of one column: survivors up to VERSIONS; the rest of its puts go. */
  private void trim(byte[] row, byte[] family, byte[] qualifier) {
    List<Cell> survivors = survivors(row, family, qualifier);
    stored.removeIf(s -> s.type() == CellType.PUT && same(s.row(), row) && same(s.family(), family)
        && same(s.qualifier(), qualifier) && !survivors.contains(s));
  }

  // ------------------------------------------------------------------ the rules

  private List<Cell> markers(byte[] row, byte[] family) {
    List<Cell> out = new ArrayList<>();
    for (Cell s : stored) {
      if (s.type().isDelete() && same(s.row(), row) && same(s.family(), family)) {
        out.add(s);
      }
    }
    return out;
  }

  private static boolean masks(Cell marker, Cell put) {
    return switch (marker.type()) {
      case DELETE_FAMILY -> put.timestamp() <= marker.timestamp();
      case DELETE_FAMILY_VERSION -> put.timestamp() == marker.timestamp();
      case DELETE_COLUMN -> same(marker.qualifier(), put.qualifier()) && put.timestamp() <= marker.timestamp();
      case DELETE -> same(marker.qualifier(), put.qualifier()) && put.timestamp() == marker.timestamp();
      case PUT -> false;
    };
  }

  /** Puts of a column a compaction would keep, newest first. */
  private List<Cell> survivors(byte[] row, byte[] family, byte[] qualifier) {
    FamilySchema schema = schema(family);
    boolean keepDeleted = schema.keepDeletedCells() != KeepDeletedCells.FALSE;
    List<Cell> markers = markers(row, family);
    List<Cell> puts = new ArrayList<>();
    for (Cell s : stored) {
      if (s.type() == CellType.PUT && same(s.row(), row) && same(s.family(), family) && same(s.qualifier(), qualifier)) {
        puts.add(s);
      }
    }
    puts.sort(Comparator.comparingLong(Cell::timestamp).reversed());
    List<Cell> out = new ArrayList<>();
    for (Cell p : puts) {
      if (!keepDeleted && markers.stream().anyMatch(m -> masks(m, p))) {
        continue;
      }
      if (out.size() < schema.maxVersions()) {
        out.add(p);
      }
    }
    return out;
  }

  /** Visible versions of one column for a read. */
  private List<Cell> visible(byte[] row, byte[] family, byte[] qualifier, TimeRange tr, int maxVersions) {
    FamilySchema schema = schema(family);
    boolean keepDeleted = schema.keepDeletedCells() != KeepDeletedCells.FALSE;
    List<Cell> readMarkers = new ArrayList<>();
    for (Cell m : markers(row, family)) {
      if (keepDeleted ? tr.contains(m.timestamp()) : tr.containsOrAfter(m.timestamp())) {
        readMarkers.add(m);
      }
    }
    List<Cell> out = new ArrayList<>();
    for (Cell p : survivors(row, family, qualifier)) {
      if (out.size() >= maxVersions) {
        break;
      }
      if (tr.contains(p.timestamp()) && readMarkers.stream().noneMatch(m -> masks(m, p))) {
        out.add(p);
      }
    }
    return out;
  }

  // ------------------------------------------------------------------ reads

  /** @param columns family name (hex-free string) → qualifiers, or null qualifiers for the whole family; null = all */
  List<Cell> get(byte[] row, Map<String, List<byte[]>> columns, TimeRange tr, int maxVersions) {
    List<Cell> out = new ArrayList<>();
    for (FamilySchema f : families) {
      String name = new String(f.name());
      if (columns != null && !columns.containsKey(name)) {
        continue;
      }
      Set<byte[]> qualifiers = new TreeSet<>(Bytes::compare);
      List<byte[]> wanted = columns == null ? null : columns.get(name);
      for (Cell s : stored) {
        if (s.type() == CellType.PUT && same(s.row(), row) && same(s.family(), f.name())) {
          if (wanted == null || wanted.stream().anyMatch(w -> same(w, s.qualifier()))) {
            qualifiers.add(s.qualifier());
          }
        }
      }
      for (byte[] q : qualifiers) {
        out.addAll(visible(row, f.name(), q, tr, maxVersions));
      }
    }
    return out;
  }

  List<RowResult> scan(byte[] start, boolean startIncl, byte[] stop, boolean stopIncl, boolean reversed,
      TimeRange tr, int maxVersions, int limit, int batch) {
    Set<byte[]> rows = new TreeSet<>(Bytes::compare);
    stored.forEach(s -> rows.add(s.row()));
    List<byte[]> ordered = new ArrayList<>(rows);
    if (reversed) {
      java.util.Collections.reverse(ordered);
    }
    List<RowResult> out = new ArrayList<>();
    int returned = 0;
    for (byte[] row : ordered) {
      if (!inBounds(row, start, startIncl, stop, stopIncl, reversed)) {
        continue;
      }
      List<Cell> cells = get(row, null, tr, maxVersions);
      if (cells.isEmpty()) {
        continue;
      }
      if (limit > 0 && returned >= limit) {
        break;
      }
      returned++;
      if (batch > 0 && cells.size() > batch) {
        for (int i = 0; i < cells.size(); i += batch) {
          int end = Math.min(cells.size(), i + batch);
          out.add(new RowResult(row, cells.subList(i, end), end < cells.size()));
        }
      } else {
        out.add(new RowResult(row, cells, false));
      }
    }
    return out;
  }

  private static boolean inBounds(byte[] row, byte[] start, boolean startIncl, byte[] stop, boolean stopIncl, boolean reversed) {
    int sign = reversed ? -1 : 1;
    if (start.length > 0) {
      int c = sign * Bytes.compare(row, start);
      if (c < 0 || c == 0 && !startIncl) {
        return false;
      }
    }
    if (stop.length > 0) {
      int c = sign * Bytes.compare(row, stop);
      if (c > 0 || c == 0 && !stopIncl) {
        return false;
      }
    }
    return true;
  }

  // ------------------------------------------------------------------ read-modify-write

  /** Returns the new cell, or null with nothing written if the current value is not an 8-byte long. */
  Cell increment(byte[] row, byte[] family, byte[] qualifier, long delta, long now) {
    List<Cell> cur = visible(row, family, qualifier, TimeRange.ALL, 1);
    long base = 0;
    long ts = now;
    if (!cur.isEmpty()) {
      if (cur.get(0).value().length != 8) {
        return null;
      }
      base = Bytes.toLong(cur.get(0).value());
      ts = Math.max(now, cur.get(0).timestamp() + 1);
    }
    Cell c = Cell.put(row, family, qualifier, ts, Bytes.of(base + delta));
    mutate(RowMutation.of(row).add(c).build(), now);
    return c;
  }

  Cell append(byte[] row, byte[] family, byte[] qualifier, byte[] suffix, long now) {
    List<Cell> cur = visible(row, family, qualifier, TimeRange.ALL, 1);
    byte[] value = cur.isEmpty() ? suffix : Bytes.concat(cur.get(0).value(), suffix);
    long ts = cur.isEmpty() ? now : Math.max(now, cur.get(0).timestamp() + 1);
    Cell c = Cell.put(row, family, qualifier, ts, value);
    mutate(RowMutation.of(row).add(c).build(), now);
    return c;
  }

  boolean checkAndMutate(byte[] row, byte[] family, byte[] qualifier, CompareOp op, byte[] value, RowMutation m, long now) {
    List<Cell> cur = visible(row, family, qualifier, TimeRange.ALL, 1);
    boolean holds;
    if (value == null || value.length == 0) {
      boolean positive = op != CompareOp.NOT_EQUAL;
      holds = cur.isEmpty() ? positive : (cur.get(0).value().length == 0) == positive;
    } else {
      holds = !cur.isEmpty() && op.holds(Bytes.compare(value, cur.get(0).value()));
    }
    if (holds) {
      mutate(m, now);
    }
    return holds;
  }

  static Map<String, List<byte[]>> selection() {
    return new LinkedHashMap<>();
  }
}
