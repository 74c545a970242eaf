package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.ColumnSelection;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.RegionScanner;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.read.TimeRange;
import io.basalt.storage.region.Region;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/** Shorthand for tests: a fixture per test, string rows/families/qualifiers, readable cell lists. */
abstract class RegionTestBase {
  static final byte[] F1 = of("f1");
  static final byte[] F2 = of("f2");

  @TempDir Path dir;
  RegionFixture fx;

  RegionFixture fixture() {
    if (fx == null) {
      fx = new RegionFixture(dir);
    }
    return fx;
  }

  @AfterEach
  void closeFixture() {
    if (fx != null) {
      fx.close();
    }
  }

  static void put(Region r, String row, byte[] fam, String q, long ts, String value) {
    r.mutate(RowMutation.of(of(row)).put(fam, of(q), ts, of(value)).build(), Durability.SYNC_WAL);
  }

  static void apply(Region r, RowMutation.Builder m) {
    r.mutate(m.build(), Durability.SYNC_WAL);
  }

  static RowMutation.Builder row(String row) {
    return RowMutation.of(of(row));
  }

  static List<Cell> get(Region r, String row) {
    return r.get(of(row), ReadOptions.DEFAULT);
  }

  static List<Cell> getAll(Region r, String row) {
    return r.get(of(row), ReadOptions.DEFAULT.withMaxVersions(Integer.MAX_VALUE));
  }

  static List<Cell> getRange(Region r, String row, long min, long max) {
    return r.get(of(row), ReadOptions.DEFAULT.withMaxVersions(Integer.MAX_VALUE).withTimeRange(new TimeRange(min, max)));
  }

  static ColumnSelection columns(Object... familyThenQualifier) {
    ColumnSelection.Builder b = ColumnSelection.builder();
    for (int i = 0; i < familyThenQualifier.length; i += 2) {
      byte[] fam = (byte[]) familyThenQualifier[i];
      Object q = familyThenQualifier[i + 1];
      if (q == null) {
        b.family(fam);
      } else {
        b.column(fam, of((String) q));
      }
    }
    return b.build();
  }

  /** "family:qualifier@ts=value" per cell, the easiest form to assert order and content at once. */
  static List<String> show(List<Cell> cells) {
    List<String> out = new ArrayList<>();
    for (Cell c : cells) {
      out.add(Bytes.toStringBinary(c.family()) + ":" + Bytes.toStringBinary(c.qualifier()) + "@" + c.timestamp() + "="
          + Bytes.toStringBinary(c.value()));
    }
    return out;
  }

  static List<RowResult> scanAll(Region r, ScanSpec spec) {
    List<RowResult> out = new ArrayList<>();
    try (RegionScanner s = r.scan(spec)) {
      while (true) {
        List<RowResult> batch = s.next(3, Long.MAX_VALUE);
        if (batch.isEmpty()) {
          break;
        }
        out.addAll(batch);
      }
    }
    return out;
  }

  static List<String> rows(List<RowResult> results) {
    List<String> out = new ArrayList<>();
    for (RowResult r : results) {
      out.add(Bytes.toStringBinary(r.row()) + (r.partial() ? "(partial)" : "") + show(r.cells()));
    }
    return out;
  }
}
