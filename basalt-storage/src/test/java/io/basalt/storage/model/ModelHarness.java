package io.basalt.storage.model;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.error.InvalidMutationException;
import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.mutation.Append;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.Increment;
import io.basalt.storage.mutation.RowCondition;
import io.basalt.storage.read.ColumnSelection;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.RegionScanner;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.read.TimeRange;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real region (JE, with a settable clock) and a {@link ReferenceModel} side by side. {@link #run} applies one
 * {@link ModelStep} to both, compares what they answered, then compares every row in full.
 */
final class ModelHarness implements AutoCloseable {
  /** Every read answer: a version count above any family's VERSIONS. */
  private static final int ALL_VERSIONS = 10;

  private final AtomicLong clock = new AtomicLong();
  private final JeStorageEngine engine;
  private final Path regionDir;
  /** Both formats side by side ({@link MirroredRegion}), or the engine's default alone. */
  private final boolean mirrored;
  private final List<byte[]> rows;
  private final ReferenceModel model;
  private Region region;

  ModelHarness(Path dir, List<FamilySchema> families, List<byte[]> rows) {
    this(dir, families, rows, false);
  }

  /** {@code mirrored}: a format-1 and a format-2 region, whose every answer must also agree with each other's. */
  ModelHarness(Path dir, List<FamilySchema> families, List<byte[]> rows, boolean mirrored) {
    this.rows = rows;
    this.regionDir = dir.resolve("region");
    this.mirrored = mirrored;
    this.engine = new JeStorageEngine(
        StorageConfig.DEFAULT.withCacheBytes(8L << 20).withPurgeIntervalMillis(0).withClock(clock::get));
    RegionDescriptor descriptor = new RegionDescriptor(families, KeyRange.ALL);
    this.region = mirrored
        ? new MirroredRegion(engine.create(regionDir.resolve("v1"), descriptor, 1),
            engine.create(regionDir.resolve("v2"), descriptor, 2))
        : engine.create(regionDir, descriptor);
    this.model = new ReferenceModel(families);
  }

  private Region reopen() {
    return mirrored
        ? new MirroredRegion(engine.open(regionDir.resolve("v1")), engine.open(regionDir.resolve("v2")))
        : engine.open(regionDir);
  }

  void run(ModelStep step) {
    clock.set(step.now());
    if (step instanceof ModelStep.Mutate m) {
      region.mutate(m.mutation(), m.durability());
      model.mutate(m.mutation(), m.now());
    } else if (step instanceof ModelStep.MutateBatch b) {
      io.basalt.storage.mutation.BatchResult result = region.mutateBatch(b.mutations(), b.durability());
      for (int i = 0; i < result.size(); i++) {
        if (!result.applied(i)) {
          throw new AssertionError("mutation " + i + " of the batch failed", result.failure(i));
        }
        model.mutate(b.mutations().get(i), b.now());
      }
    } else if (step instanceof ModelStep.CheckAndMutate c) {
      boolean expected = model.checkAndMutate(c.mutation().row(), c.family(), c.qualifier(), c.op(), c.value(),
          c.mutation(), c.now());
      boolean actual = region.checkAndMutate(c.mutation().row(),
          RowCondition.column(c.family(), c.qualifier(), c.op(), c.value(), TimeRange.ALL), c.mutation(), Durability.SKIP_WAL);
      same(actual, expected, "checkAndMutate applied");
    } else if (step instanceof ModelStep.ReadModifyWrite r) {
      readModifyWrite(r);
    } else if (step instanceof ModelStep.Get g) {
      List<Cell> actual = region.get(g.row(), readOptions(g.query()));
      same(actual, model.get(g.row(), g.query()), "get", g.row());
    } else if (step instanceof ModelStep.Scan s) {
      List<RowResult> expected = model.scan(s.scan());
      same(scan(s, expected), expected, "scan");
    } else if (step instanceof ModelStep.Purge p) {
      List<List<Cell>> before = p.thorough() ? snapshot(p.now()) : null;
      region.maintain();
      if (p.thorough()) {
        same(snapshot(p.now()), before, "reads after maintain() compared with before it");
      }
    } else if (step instanceof ModelStep.Reopen r) {
      List<List<Cell>> before = snapshot(r.now());
      region.close();
      region = reopen();
      same(snapshot(r.now()), before, "reads after reopening compared with before closing");
    } else {
      throw new IllegalArgumentException("unknown step " + step);
    }
    checkEveryRow();
  }

  private void readModifyWrite(ModelStep.ReadModifyWrite r) {
    List<Cell> expected;
    String expectedError = null;
    try {
      expected = model.readModifyWrite(r.row(), r.changes(), r.now());
    } catch (ReferenceModel.NotACounter e) {
      expected = null;
      expectedError = e.getMessage();
    }
    List<Cell> actual;
    try {
      if (r.append()) {
        List<Append.Suffix> suffixes = new ArrayList<>();
        r.changes().forEach(c -> suffixes.add(new Append.Suffix(c.family(), c.qualifier(), c.suffix())));
        actual = region.append(new Append(r.row(), suffixes, r.returnResults()), Durability.SKIP_WAL);
      } else {
        List<Increment.Delta> deltas = new ArrayList<>();
        r.changes().forEach(c -> deltas.add(new Increment.Delta(c.family(), c.qualifier(), c.delta())));
        actual = region.increment(new Increment(r.row(), deltas, r.returnResults()), Durability.SKIP_WAL);
      }
    } catch (InvalidMutationException e) {
      if (expected != null) {
        throw new AssertionError("the store refused the increment (" + e.getMessage() + ") but the model applied it: "
            + expected);
      }
      return;
    }
    if (expected == null) {
      throw new AssertionError("the model refuses the increment (" + expectedError + ") but the store returned " + actual);
    }
    same(actual, r.returnResults() ? expected : List.of(), "new cells");
  }

  /** Drains a scanner; also checks it reports being complete exactly when its row limit was reached. */
  private List<RowResult> scan(ModelStep.Scan s, List<RowResult> expected) {
    ReferenceModel.Scan m = s.scan();
    ScanSpec spec = new ScanSpec(m.start(), m.startInclusive(), m.stop(), m.stopInclusive(), m.reversed(),
        readOptions(m.query()), m.limit(), m.batch());
    List<RowResult> out = new ArrayList<>();
    try (RegionScanner scanner = region.scan(spec)) {
      int asked = s.firstCall();
      List<RowResult> chunk = scanner.next(asked, s.maxBytes());
      while (!chunk.isEmpty()) {
        if (chunk.size() > asked) {
          throw new AssertionError("next(" + asked + ") returned " + chunk.size() + " results");
        }
        out.addAll(chunk);
        asked = s.laterCalls();
        chunk = scanner.next(asked, s.maxBytes());
      }
      if (!scanner.isDone()) {
        throw new AssertionError("scanner returned nothing but is not done");
      }
      lastPartsComplete(out);
      long rowsExpected = expected.stream().filter(r -> !r.partial()).count();
      boolean limitReached = m.limit() > 0 && rowsExpected == m.limit();
      if (scanner.isComplete() != limitReached && deepEquals(out, expected)) {
        throw new AssertionError("isComplete() is " + scanner.isComplete() + " after " + rowsExpected + " rows, limit "
            + m.limit());
      }
    }
    return out;
  }

  /**
   * Clears "more in this row" on each row's last result. The store sets it there, as HBase does, when a stored
   * key of the row (a hidden version, a marker) follows the cut: which keys a region still stores depends on its
   * purges, which the model does not follow. DifferentialTest checks that flag against HBase; the cells of every
   * result are still compared here.
   */
  private static void lastPartsComplete(List<RowResult> out) {
    for (int i = 0; i < out.size(); i++) {
      RowResult r = out.get(i);
      boolean rowGoesOn = i + 1 < out.size() && Arrays.equals(out.get(i + 1).row(), r.row());
      if (r.partial() && !rowGoesOn) {
        out.set(i, new RowResult(r.row(), r.cells(), false));
      }
    }
  }

  static ReadOptions readOptions(ReferenceModel.Query q) {
    ReadOptions o = ReadOptions.DEFAULT.withMaxVersions(q.maxVersions()).withTimeRange(new TimeRange(q.min(), q.max()));
    if (!q.columns().isEmpty()) {
      ColumnSelection.Builder b = ColumnSelection.builder();
      for (ReferenceModel.Col c : q.columns()) {
        if (c.qualifier() == null) {
          b.family(c.family());
        } else {
          b.column(c.family(), c.qualifier());
        }
      }
      o = o.withColumns(b.build());
    }
    if (q.familyOverride() != null) {
      o = o.withFamilyTimeRange(q.familyOverride(), new TimeRange(q.fmin(), q.fmax()));
    }
    if (q.familyLimit() >= 0 || q.familyOffset() > 0) {
      o = o.withFamilyLimits(q.familyLimit(), q.familyOffset());
    }
    return o;
  }

  private static ReferenceModel.Query everything(long min, long max, int versions) {
    return new ReferenceModel.Query(List.of(), min, max, null, 0, 0, versions, -1, 0);
  }

  /** Every row, every version, all time: store and model must agree after every step. */
  void checkEveryRow() {
    for (byte[] row : rows) {
      ReferenceModel.Query all = everything(0, Long.MAX_VALUE, ALL_VERSIONS);
      List<Cell> actual = region.get(row, readOptions(all));
      same(actual, model.get(row, all), "full read of row " + ModelBytes.show(row), row);
    }
  }

  /**
   * Many reads of every row (all time, each single timestamp around now, ranges below and above), as the
   * store answers them, after checking each against the model.
   */
  private List<List<Cell>> snapshot(long now) {
    List<ReferenceModel.Query> queries = new ArrayList<>();
    queries.add(everything(0, Long.MAX_VALUE, ALL_VERSIONS));
    queries.add(everything(0, Long.MAX_VALUE, 1));
    for (long t = 0; t <= now + 4; t += Math.max(1, (now + 4) / 7)) {
      queries.add(everything(t, t + 1, ALL_VERSIONS));
      queries.add(everything(0, t, ALL_VERSIONS));
      queries.add(everything(t, Long.MAX_VALUE, 1));
    }
    List<List<Cell>> out = new ArrayList<>();
    for (byte[] row : rows) {
      for (ReferenceModel.Query q : queries) {
        List<Cell> actual = region.get(row, readOptions(q));
        same(actual, model.get(row, q), "read " + ModelBytes.show(row) + " " + q, row);
        out.add(actual);
      }
    }
    return out;
  }

  private void same(Object actual, Object expected, String what) {
    same(actual, expected, what, null);
  }

  /** Fails showing both answers and, given a row, every cell (puts and markers) the model stores for it. */
  private void same(Object actual, Object expected, String what, byte[] row) {
    if (!deepEquals(actual, expected)) {
      throw new AssertionError(what + ":\n  store: " + render(actual) + "\n  model: " + render(expected)
          + (row == null ? "" : "\n  model's stored cells of the row: " + render(model.storedCells(row))));
    }
  }

  private static boolean deepEquals(Object a, Object b) {
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!deepEquals(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof RowResult x && b instanceof RowResult y) {
      return Arrays.equals(x.row(), y.row()) && x.partial() == y.partial() && deepEquals(x.cells(), y.cells());
    }
    return Objects.equals(a, b);
  }

  private static String render(Object o) {
    if (o instanceof List<?> l) {
      StringBuilder sb = new StringBuilder("[");
      for (Object x : l) {
        sb.append(sb.length() > 1 ? ", " : "").append(render(x));
      }
      return sb.append(']').toString();
    }
    if (o instanceof RowResult r) {
      return "Row(" + ModelBytes.show(r.row()) + (r.partial() ? ", partial" : "") + ": " + render(r.cells()) + ")";
    }
    return String.valueOf(o);
  }

  @Override
  public void close() {
    try {
      region.close();
    } finally {
      engine.close();
    }
  }
}
