package io.basalt.storage.read;

import io.basalt.storage.cell.CellType;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeepDeletedCells;
import java.util.HashSet;
import java.util.Set;

/**
 * HBase's masking and version rules for the stored cells of one family of one row, fed in key order
 * (family markers first, then each column newest first, markers before puts at equal timestamps).
 *
 * <p>Two questions are answered from the same walk:
 * <ul>
 *   <li>{@link #retain} — would a major compaction keep this stored cell? (Used by the write path to trim
 *       versions beyond VERSIONS and by the background purge.) A put survives if it is not masked by any
 *       marker (unless KEEP_DELETED_CELLS), is among the newest VERSIONS survivors, and is not past TTL
 *       (unless among the newest MIN_VERSIONS). Markers survive unless they can no longer change any read.</li>
 *   <li>{@link #read} — does a read with this time range see it? Only survivors can be seen (Basalt gives
 *       the post-compaction answer, see docs), and a marker masks a read when KEEP_DELETED_CELLS is false,
 *       or when its timestamp is inside the read's time range.</li>
 * </ul>
 * Delete markers are permanent while they can matter, so a put written after a delete with an older
 * timestamp stays masked.
 */
public final class VersionTracker {
  /** Outcome for one stored cell. */
  public enum Verdict {
    /** Visible to the read (or kept, for retention). */
    YES,
    /** Not visible (or dead); the rest of the column may still be. */
    NO,
    /** Neither this cell nor any older cell of the column can be visible (or kept). */
    NO_MORE_IN_COLUMN
  }

  private final FamilySchema schema;
  private final TimeRange readRange;
  private final long oldestLive;
  private final boolean keepDeleted;

  private long familyDeleteTs = -1;
  private long familyDeleteTsForRead = -1;
  // Version markers are rare: these sets stay null until one is fed (a tracker is made per row and family read).
  private Set<Long> familyVersionDeletes;
  private Set<Long> familyVersionDeletesForRead;

  private long columnDeleteTs;
  private long columnDeleteTsForRead;
  private Set<Long> versionDeletes;
  private Set<Long> versionDeletesForRead;
  private int survivors;

  /**
   * @param readRange the read's time range; for retention pass {@link TimeRange#ALL}
   * @param nowMillis the clock reading that decides TTL expiry
   */
  public VersionTracker(FamilySchema schema, TimeRange readRange, long nowMillis) {
    this.schema = schema;
    this.readRange = readRange;
    this.oldestLive = schema.oldestLiveTimestamp(nowMillis);
    this.keepDeleted = schema.keepDeletedCells() != KeepDeletedCells.FALSE;
    startColumn();
  }

  /** Forget everything: the next cells belong to another row. */
  public void startRow() {
    familyDeleteTs = -1;
    familyDeleteTsForRead = -1;
    familyVersionDeletes = null;
    familyVersionDeletesForRead = null;
    startColumn();
  }

  /** The next cells belong to another column of the same row. */
  public void startColumn() {
    columnDeleteTs = -1;
    columnDeleteTsForRead = -1;
    versionDeletes = null;
    versionDeletesForRead = null;
    survivors = 0;
  }

  /** Records a family-level marker (always fed before any column of the row). */
  public void familyMarker(long ts, CellType type) {
    boolean forRead = markerAppliesToRead(ts);
    if (type == CellType.DELETE_FAMILY) {
      familyDeleteTs = Math.max(familyDeleteTs, ts);
      if (forRead) {
        familyDeleteTsForRead = Math.max(familyDeleteTsForRead, ts);
      }
    } else if (type == CellType.DELETE_FAMILY_VERSION) {
      familyVersionDeletes = with(familyVersionDeletes, ts);
      if (forRead) {
        familyVersionDeletesForRead = with(familyVersionDeletesForRead, ts);
      }
    } else {
      throw new IllegalArgumentException("not a family marker: " + type);
    }
  }

  /** Is this cell visible to the read? Markers are recorded and never visible. */
  public Verdict read(long ts, CellType type) {
    if (type.isDelete()) {
      columnMarker(ts, type);
      return Verdict.NO;
    }
    Verdict stored = survive(ts);
    if (stored != Verdict.YES) {
      return stored;
    }
    if (ts < readRange.min()) {
      return Verdict.NO_MORE_IN_COLUMN;
    }
    if (!readRange.contains(ts)) {
      return Verdict.NO;
    }
    if (keepDeleted && maskedForRead(ts)) {
      return Verdict.NO;
    }
    return Verdict.YES;
  }

  /**
   * Does a raw read (HBase's {@code Scan.setRaw}) see this stored cell, marker or put? It sees what the
   * region keeps ({@link #retain}), inside the read's time range; markers mask nothing for it.
   */
  public Verdict readRaw(long ts, CellType type) {
    Verdict kept = retain(ts, type);
    if (kept == Verdict.NO_MORE_IN_COLUMN || ts < readRange.min()) {
      return Verdict.NO_MORE_IN_COLUMN;
    }
    return kept == Verdict.YES && readRange.contains(ts) ? Verdict.YES : Verdict.NO;
  }

  /** The family-marker counterpart of {@link #readRaw}; records the marker as {@link #familyMarker} does. */
  public boolean readRawFamilyMarker(long ts, CellType type) {
    boolean kept = retainFamilyMarker(ts, type);
    familyMarker(ts, type);
    return kept && readRange.contains(ts);
  }

  /** Would a major compaction keep this stored cell? */
  public Verdict retain(long ts, CellType type) {
    if (type.isDelete()) {
      boolean redundant = !keepDeleted && isRedundantMarker(ts, type);
      columnMarker(ts, type);
      return redundant || markerExpired(ts) ? Verdict.NO : Verdict.YES;
    }
    return survive(ts);
  }

  /** Is a family-level marker still able to change a read? Call before feeding it to {@link #familyMarker}. */
  public boolean retainFamilyMarker(long ts, CellType type) {
    if (markerExpired(ts)) {
      return false;
    }
    if (keepDeleted) {
      return true;
    }
    // A DeleteFamily at or above this timestamp (fed earlier: newest first) masks all this one masks.
    return ts > familyDeleteTs;
  }

  private Verdict survive(long ts) {
    if (!keepDeleted && maskedByAny(ts)) {
      return Verdict.NO;
    }
    if (survivors >= schema.maxVersions()) {
      return Verdict.NO_MORE_IN_COLUMN;
    }
    if (ts < oldestLive && survivors >= schema.minVersions()) {
      return Verdict.NO_MORE_IN_COLUMN;
    }
    survivors++;
    return Verdict.YES;
  }

  private void columnMarker(long ts, CellType type) {
    boolean forRead = markerAppliesToRead(ts);
    if (type == CellType.DELETE_COLUMN) {
      columnDeleteTs = Math.max(columnDeleteTs, ts);
      if (forRead) {
        columnDeleteTsForRead = Math.max(columnDeleteTsForRead, ts);
      }
    } else if (type == CellType.DELETE) {
      versionDeletes = with(versionDeletes, ts);
      if (forRead) {
        versionDeletesForRead = with(versionDeletesForRead, ts);
      }
    } else {
      throw new IllegalArgumentException("not a column marker: " + type);
    }
  }

  private boolean markerAppliesToRead(long ts) {
    return keepDeleted ? readRange.contains(ts) : readRange.containsOrAfter(ts);
  }

  private boolean maskedByAny(long ts) {
    return ts <= familyDeleteTs || ts <= columnDeleteTs
        || has(familyVersionDeletes, ts) || has(versionDeletes, ts);
  }

  private boolean maskedForRead(long ts) {
    return ts <= familyDeleteTsForRead || ts <= columnDeleteTsForRead
        || has(familyVersionDeletesForRead, ts) || has(versionDeletesForRead, ts);
  }

  private boolean isRedundantMarker(long ts, CellType type) {
    if (ts <= familyDeleteTs) {
      return true;
    }
    return type == CellType.DELETE && (ts <= columnDeleteTs || has(familyVersionDeletes, ts));
  }

  private static Set<Long> with(Set<Long> set, long ts) {
    Set<Long> s = set == null ? new HashSet<>() : set;
    s.add(ts);
    return s;
  }

  private static boolean has(Set<Long> set, long ts) {
    return set != null && set.contains(ts);
  }

  /** A marker past TTL only masks expired cells, unless MIN_VERSIONS keeps expired cells readable. */
  private boolean markerExpired(long ts) {
    return ts < oldestLive && schema.minVersions() == 0;
  }
}
