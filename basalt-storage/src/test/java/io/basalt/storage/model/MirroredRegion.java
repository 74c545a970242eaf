package io.basalt.storage.model;

import io.basalt.storage.cell.Cell;
import io.basalt.storage.mutation.Append;
import io.basalt.storage.mutation.BatchResult;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.Increment;
import io.basalt.storage.mutation.RowCondition;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.mutation.RowOperation;
import io.basalt.storage.mutation.RowOutcome;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.RegionScanner;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.ScanBudget;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.region.Compaction;
import io.basalt.storage.region.Region;
import io.basalt.storage.region.RegionStats;
import io.basalt.storage.schema.RegionDescriptor;
import io.basalt.storage.segment.LogSegmentSet;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Two regions given the same calls, one in each storage format (the metamorphic check of {@link
 * FormatMetamorphicTest}): every answer of the second must equal the first's, to the last partial-row flag and
 * failure class, else an {@link AssertionError} names the call. Answers about the files (log segments, stats) are
 * the first's: the formats store differently.
 */
final class MirroredRegion implements Region {
  private final Region first;
  private final Region second;

  MirroredRegion(Region first, Region second) {
    this.first = first;
    this.second = second;
  }

  /** Runs {@code call} on both; both must answer alike or fail with the same class. */
  private <T> T both(String what, java.util.function.Function<Region, T> call) {
    T a;
    try {
      a = call.apply(first);
    } catch (RuntimeException e) {
      RuntimeException b = failureOf(() -> call.apply(second));
      if (b == null || b.getClass() != e.getClass()) {
        throw new AssertionError(what + ": format 1 failed with " + e + " but format 2 " + (b == null ? "did not" : "with " + b));
      }
      throw e;
    }
    T b;
    try {
      b = call.apply(second);
    } catch (RuntimeException e) {
      throw new AssertionError(what + ": format 2 failed with " + e + " but format 1 answered " + a, e);
    }
    if (!same(a, b)) {
      throw new AssertionError(what + ": the formats disagree\n  format 1: " + a + "\n  format 2: " + b);
    }
    return a;
  }

  private static RuntimeException failureOf(Supplier<?> call) {
    try {
      call.get();
      return null;
    } catch (RuntimeException e) {
      return e;
    }
  }

  static boolean same(Object a, Object b) {
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!same(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof RowResult x && b instanceof RowResult y) {
      return Arrays.equals(x.row(), y.row()) && x.partial() == y.partial() && same(x.cells(), y.cells());
    }
    if (a instanceof RowOutcome x && b instanceof RowOutcome y) {
      return x.applied() == y.applied() && same(x.results(), y.results());
    }
    if (a instanceof BatchResult x && b instanceof BatchResult y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (x.applied(i) != y.applied(i)) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Compaction x && b instanceof Compaction y) {
      return x.entriesRemoved() == y.entriesRemoved();
    }
    if (a instanceof Optional<?> x && b instanceof Optional<?> y) {
      return x.isPresent() == y.isPresent(); // split points differ by design: format 2 counts rows, not cells
    }
    return Objects.equals(a, b);
  }

  @Override
  public RegionDescriptor descriptor() {
    return first.descriptor();
  }

  @Override
  public void mutate(RowMutation mutation, Durability durability) {
    both("mutate " + mutation, r -> {
      r.mutate(mutation, durability);
      return null;
    });
  }

  @Override
  public BatchResult mutateBatch(List<RowMutation> mutations, Durability durability) {
    return both("mutateBatch", r -> r.mutateBatch(mutations, durability));
  }

  @Override
  public void load(List<RowMutation> rows, Durability durability) {
    both("load", r -> {
      r.load(rows, durability);
      return null;
    });
  }

  @Override
  public List<Cell> get(byte[] row, ReadOptions options) {
    return both("get " + ModelBytes.show(row), r -> r.get(row, options));
  }

  @Override
  public RegionScanner scan(ScanSpec spec) {
    return new MirroredScanner(first.scan(spec), second.scan(spec));
  }

  @Override
  public List<Cell> increment(Increment increment, Durability durability) {
    return both("increment", r -> r.increment(increment, durability));
  }

  @Override
  public List<Cell> append(Append append, Durability durability) {
    return both("append", r -> r.append(append, durability));
  }

  @Override
  public boolean checkAndMutate(byte[] row, RowCondition condition, RowMutation mutation, Durability durability) {
    return both("checkAndMutate", r -> r.checkAndMutate(row, condition, mutation, durability));
  }

  @Override
  public RowOutcome mutateRow(byte[] row, RowCondition condition, List<RowOperation> operations, Durability durability) {
    return both("mutateRow", r -> r.mutateRow(row, condition, operations, durability));
  }

  @Override
  public Optional<byte[]> midpointRow() {
    return both("midpointRow", Region::midpointRow);
  }

  @Override
  public LogSegmentSet logSegments() {
    return first.logSegments();
  }

  @Override
  public LogSegmentSet checkpointedSegments() {
    return first.checkpointedSegments();
  }

  @Override
  public LogSegmentSet logSegmentsAfter(long afterSegment) {
    return first.logSegmentsAfter(afterSegment);
  }

  @Override
  public RegionStats stats() {
    return first.stats();
  }

  @Override
  public void alterFamilies(RegionDescriptor newDescriptor) {
    both("alterFamilies", r -> {
      r.alterFamilies(newDescriptor);
      return null;
    });
  }

  @Override
  public long maintain() {
    return both("maintain", Region::maintain);
  }

  @Override
  public void flush() {
    both("flush", r -> {
      r.flush();
      return null;
    });
  }

  @Override
  public Compaction compact(boolean major) {
    return both("compact", r -> r.compact(major));
  }

  @Override
  public void close() {
    try {
      first.close();
    } finally {
      second.close();
    }
  }

  /** A scanner of each; every batch must be the same. */
  private static final class MirroredScanner implements RegionScanner {
    private final RegionScanner a;
    private final RegionScanner b;

    MirroredScanner(RegionScanner a, RegionScanner b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public List<RowResult> next(ScanBudget budget) {
      List<RowResult> x = a.next(budget);
      List<RowResult> y = b.next(budget);
      if (!same(x, y)) {
        throw new AssertionError("scan batch: the formats disagree\n  format 1: " + x + "\n  format 2: " + y);
      }
      return x;
    }

    @Override
    public boolean isDone() {
      return check("isDone", a.isDone(), b.isDone());
    }

    @Override
    public boolean isComplete() {
      return check("isComplete", a.isComplete(), b.isComplete());
    }

    private static boolean check(String what, boolean x, boolean y) {
      if (x != y) {
        throw new AssertionError(what + ": format 1 says " + x + ", format 2 " + y);
      }
      return x;
    }

    @Override
    public void close() {
      try {
        a.close();
      } finally {
        b.close();
      }
    }
  }
}
