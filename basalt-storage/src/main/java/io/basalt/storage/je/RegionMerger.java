package io.basalt.storage.je;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.Environment;
import com.sleepycat.je.EnvironmentConfig;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Transaction;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.CellKeyCodec;
import io.basalt.storage.error.StorageException;
import io.basalt.storage.region.MergeReport;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import io.basalt.storage.io.StorageFiles;
import io.basalt.storage.segment.RegionCloner;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Supplier;

/**
 * Fills a clone of the larger of two adjacent closed regions with the smaller one's records, so that it opens as
 * the merged region. Two JE logs cannot be spliced (their LSNs collide), so the smaller region's records are
 * copied through JE: the cost is the smaller region's live data, written once more, plus the larger's tail segment
 * (see {@code RegionCloner}). The smaller region's directory is only read (a read-only environment), so a merge
 * that is undone leaves both sources as they were.
 *
 * <p>A split daughter may still hold its parent's keys outside its own range (collected in the background): the
 * clone's keys inside the smaller region's range are deleted before the copy, so a stale version never shows
 * through, and only the smaller region's keys inside its own range are copied. Keys outside the merged range stay
 * hidden and are collected as for a daughter.
 */
final class RegionMerger {
  /** Records per JE transaction of the copy: small enough for the cache, large enough to share log writes. */
  private static final int BATCH = 2000;
  private static final String FAMILY_DB_PREFIX = "family:";

  private RegionMerger() {}

  /**
   * Clones the larger of {@code a} and {@code b} (closed regions) into {@code target} and merges the smaller one
   * into it; on failure the target is deleted. {@code openTarget}: opens the target's environment with the engine's
   * configuration and shared cache.
   */
  static MergeReport merge(StorageFiles files, Path a, Path b, Path target, KeyRange merged,
      Supplier<Environment> openTarget) {
    boolean aLarger = logBytes(files, a) >= logBytes(files, b);
    long tail = RegionCloner.cloneClosed(files, aLarger ? a : b, target);
    try {
      return fill(openTarget, aLarger ? b : a, merged, tail);
    } catch (RuntimeException e) {
      try {
        files.deleteRecursively(target);
      } catch (IOException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }

  /** The bytes of a closed region's log segments: which of two regions is cheaper to copy. */
  static long logBytes(StorageFiles files, Path dir) {
    try {
      long total = 0;
      for (Path segment : files.listSegments(dir)) {
        total += files.size(segment);
      }
      return total;
    } catch (IOException e) {
      throw new StorageException("cannot list the log of " + dir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Merges {@code smaller} (a closed region directory, only read) into the closed clone of the larger region that
   * {@code openTarget} opens (closed again before this returns), and records {@code merged} as its range, last: a
   * target whose range is {@code merged} already was filled before, and is left as it is. The target may be a
   * replicated environment (its primary): the copy then goes into its group's log.
   */
  static MergeReport fill(Supplier<Environment> openTarget, Path smaller, KeyRange merged,
      long linkedTailBytes) {
    long start = System.nanoTime();
    Environment source = openReadOnly(smaller);
    try {
      RegionMetadata from = readOnlyMetadata(source, smaller);
      Environment target = openTarget.get();
      try {
        RegionMetadata into = RegionCatalog.readMetadata(target);
        KeyRange small = from.descriptor().range();
        KeyRange large = into.descriptor().range();
        if (large.equals(merged)) {
          // Filled by an earlier try that stopped before recording it elsewhere: the range is written last.
          return new MergeReport(0, 0, 0, linkedTailBytes, (System.nanoTime() - start) / 1_000_000);
        }
        checkAdjacent(small, large, merged);
        if (from.formatVersion() != into.formatVersion()) {
          // The copy moves JE records as they are: a record means something else in the other format.
          throw new StorageException("cannot merge a region of format " + from.formatVersion() + " into one of format "
              + into.formatVersion());
        }
        long deleted = 0;
        long copied = 0;
        long bytes = 0;
        List<FamilySchema> families = new ArrayList<>(into.descriptor().families());
        for (FamilySchema f : from.descriptor().families()) {
          if (into.descriptor().family(f.name()).isEmpty()) {
            families.add(f);
          }
        }
        for (FamilySchema f : families) {
          try (Database to = target.openDatabase(null, familyDbName(f.name()), writable())) {
            deleted += deleteRange(target, to, small);
            if (from.descriptor().family(f.name()).isPresent()) {
              long[] n = copyRange(source, target, f, to, small);
              copied += n[0];
              bytes += n[1];
            }
          }
        }
        RegionDescriptor descriptor = new RegionDescriptor(families, merged);
        writeMetadata(target, into.with(descriptor, into.pendingCollection()));
        target.sync();
        return new MergeReport(copied, bytes, deleted, linkedTailBytes, (System.nanoTime() - start) / 1_000_000);
      } finally {
        target.close();
      }
    } catch (com.sleepycat.je.DatabaseException e) {
      throw JeErrors.translate("merging " + smaller + " into its neighbour", e);
    } finally {
      source.close();
    }
  }

  private static void checkAdjacent(KeyRange small, KeyRange large, KeyRange merged) {
    boolean smallFirst = small.end().length > 0 && Bytes.compare(small.end(), large.start()) == 0;
    boolean largeFirst = large.end().length > 0 && Bytes.compare(large.end(), small.start()) == 0;
    KeyRange union = smallFirst ? new KeyRange(small.start(), large.end())
        : largeFirst ? new KeyRange(large.start(), small.end()) : null;
    if (union == null || !union.equals(merged)) {
      throw new StorageException("regions " + small + " and " + large + " are not adjacent halves of " + merged);
    }
  }

  /** DbDump's way: no recovery writes, no checkpoint at close; the files are never changed. */
  private static Environment openReadOnly(Path dir) {
    EnvironmentConfig ec = new EnvironmentConfig();
    ec.setReadOnly(true);
    ec.setAllowCreate(false);
    ec.setSharedCache(true);
    // Only if it is the process's first environment: the engine resizes the shared cache at its next open.
    ec.setCacheSize(16L << 20);
    ec.setConfigParam(EnvironmentConfig.LOG_DETECT_FILE_DELETE, "false");
    ec.setConfigParam(EnvironmentConfig.FILE_LOGGING_LEVEL, "OFF");
    ec.setConfigParam(EnvironmentConfig.STATS_COLLECT, "false");
    try {
      return new Environment(dir.toFile(), ec);
    } catch (com.sleepycat.je.DatabaseException e) {
      throw JeErrors.translate("opening " + dir + " to merge it", e);
    }
  }

  /** {@code RegionCatalog.readMetadata} for a read-only, non-transactional environment. */
  private static RegionMetadata readOnlyMetadata(Environment env, Path dir) {
    try (Database db = env.openDatabase(null, RegionMetadata.DATABASE, readOnly())) {
      DatabaseEntry data = Cursors.entry();
      if (db.get(null, new DatabaseEntry(RegionMetadata.KEY), data, LockMode.READ_UNCOMMITTED)
          != OperationStatus.SUCCESS) {
        throw new StorageException("region metadata missing in " + dir);
      }
      return RegionMetadata.decode(data.getData());
    } catch (com.sleepycat.je.DatabaseNotFoundException e) {
      throw new StorageException(dir + " is not a Basalt region (no " + RegionMetadata.DATABASE + ")", e);
    }
  }

  private static DatabaseConfig writable() {
    DatabaseConfig dc = new DatabaseConfig();
    dc.setAllowCreate(true);
    dc.setTransactional(true);
    dc.setKeyPrefixing(true);
    return dc;
  }

  private static DatabaseConfig readOnly() {
    DatabaseConfig dc = new DatabaseConfig();
    dc.setReadOnly(true);
    dc.setUseExistingConfig(true);
    return dc;
  }

  private static String familyDbName(byte[] family) {
    return FAMILY_DB_PREFIX + HexFormat.of().formatHex(family);
  }

  private static byte[] lowKey(KeyRange r) {
    return r.start().length == 0 ? null : CellKeyCodec.rowPrefix(r.start());
  }

  private static byte[] highKey(KeyRange r) {
    return r.end().length == 0 ? null : CellKeyCodec.rowPrefix(r.end());
  }

  /** Deletes the target's keys of {@code range} (a daughter's uncollected copy of its sibling's rows). */
  private static long deleteRange(Environment env, Database db, KeyRange range) {
    long total = 0;
    while (true) {
      int n = Transactions.runNoSync(env, txn -> {
        int deleted = 0;
        try (Cursor c = db.openCursor(txn, null)) {
          DatabaseEntry key = Cursors.entry();
          DatabaseEntry data = Cursors.noData();
          OperationStatus st = first(c, key, data, lowKey(range), LockMode.DEFAULT);
          byte[] below = highKey(range);
          while (st == OperationStatus.SUCCESS && deleted < BATCH
              && (below == null || Bytes.compare(key.getData(), below) < 0)) {
            c.delete();
            deleted++;
            st = c.getNext(key, data, LockMode.DEFAULT);
          }
        }
        return deleted;
      });
      total += n;
      if (n < BATCH) {
        return total;
      }
    }
  }

  /** Copies the source family's keys of {@code range}; returns {records, bytes of keys and values}. */
  private static long[] copyRange(Environment source, Environment target, FamilySchema f, Database to,
      KeyRange range) {
    long records = 0;
    long bytes = 0;
    try (Database from = source.openDatabase(null, familyDbName(f.name()), readOnly());
        Cursor c = from.openCursor(null, null)) {
      DatabaseEntry key = Cursors.entry();
      DatabaseEntry data = Cursors.entry();
      byte[] below = highKey(range);
      OperationStatus st = first(c, key, data, lowKey(range), LockMode.READ_UNCOMMITTED);
      List<byte[][]> batch = new ArrayList<>(BATCH);
      while (st == OperationStatus.SUCCESS && (below == null || Bytes.compare(key.getData(), below) < 0)) {
        batch.add(new byte[][] {key.getData(), data.getData()});
        bytes += key.getSize() + data.getSize();
        if (batch.size() == BATCH) {
          records += write(target, to, batch);
        }
        st = c.getNext(key, data, LockMode.READ_UNCOMMITTED);
      }
      records += write(target, to, batch);
    } catch (com.sleepycat.je.DatabaseNotFoundException none) {
      // the family was added while the source was closed: it holds nothing
    }
    return new long[] {records, bytes};
  }

  private static int write(Environment env, Database db, List<byte[][]> batch) {
    int n = batch.size();
    if (n > 0) {
      Transactions.runNoSync(env, (Transaction txn) -> {
        for (byte[][] kv : batch) {
          db.put(txn, new DatabaseEntry(kv[0]), new DatabaseEntry(kv[1]));
        }
        return null;
      });
      batch.clear();
    }
    return n;
  }

  private static OperationStatus first(Cursor c, DatabaseEntry key, DatabaseEntry data, byte[] from, LockMode mode) {
    if (from == null) {
      return c.getFirst(key, data, mode);
    }
    key.setData(from);
    return c.getSearchKeyRange(key, data, mode);
  }

  /** The merged range, and no saved cell count (it was the larger region's): the next open counts afresh. */
  private static void writeMetadata(Environment env, RegionMetadata metadata) {
    DatabaseConfig dc = writable();
    dc.setAllowCreate(false);
    try (Database meta = env.openDatabase(null, RegionMetadata.DATABASE, dc)) {
      Transactions.runNoSync(env, txn -> {
        meta.put(txn, new DatabaseEntry(RegionMetadata.KEY), new DatabaseEntry(metadata.encode()));
        meta.delete(txn, new DatabaseEntry(CellCountRecord.KEY));
        return null;
      });
    }
  }
}
