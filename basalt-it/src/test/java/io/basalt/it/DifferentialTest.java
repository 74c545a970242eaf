package io.basalt.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.target.Targets;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Random operation sequences replayed through the same client against Basalt and real HBase 2.6.4, results
 * compared cell by cell after every read. Writes use explicit timestamps and families keep many versions, so
 * neither answer depends on when HBase flushes or compacts. Replay with {@code -Ddiff.seed=N}; the budget is
 * {@code -Ddiff.seeds} x {@code -Ddiff.ops}; {@code -Ddiff.random=true} draws new seeds.
 *
 * <p>No empty qualifier: HBase stores a DeleteFamily marker with an empty qualifier, interleaved by timestamp
 * with an empty-qualifier column, so a filter's seek hint taken at such a cell (ColumnPrefixFilter) can jump
 * past the marker and return a deleted cell, which a plain Get of the same row does not show. Basalt keeps
 * family markers apart and always applies them (found by this test, seed 7790483830980).
 */
@Timeout(600)
class DifferentialTest {
  private static final String[] ROWS = {"r0", "r1", "r2", "r3", "r4", "r5", "s0", "s1"};
  private static final String[] FAMILIES = {"a", "b"};
  private static final String[] QUALIFIERS = {"a", "q", "q1", "x"};

  @Test
  void basaltAnswersLikeHBase() throws IOException {
    Assumptions.assumeTrue(Targets.enabled().contains(Targets.HBASE), "needs the HBase target");
    Connection basalt = Targets.connection(Targets.BASALT);
    Connection hbase = Targets.connection(Targets.HBASE);
    String one = System.getProperty("diff.seed");
    int seeds = Integer.getInteger("diff.seeds", 3);
    int ops = Integer.getInteger("diff.ops", 250);
    // Fixed seeds by default so CI is repeatable; -Ddiff.random=true explores new ones.
    long base = Boolean.getBoolean("diff.random") ? System.nanoTime() : 20261122L;
    for (int i = 0; i < (one != null ? 1 : seeds); i++) {
      long seed = one != null ? Long.parseLong(one) : base + i;
      String table = "diff_" + i;
      try (Table b = conn(basalt, table); Table h = conn(hbase, table)) {
        run(seed, ops, b, h);
      }
    }
  }

  private static Table conn(Connection c, String name) throws IOException {
    TableName t = Fixtures.createTable(c, name, Fixtures.splits("r3"), Fixtures.family("a", 100), Fixtures.family("b", 100));
    return c.getTable(t);
  }

  private static void run(long seed, int ops, Table basalt, Table hbase) throws IOException {
    Random rnd = new Random(seed);
    for (int step = 0; step < ops; step++) {
      String where = "seed " + seed + " step " + step + ": ";
      int op = rnd.nextInt(100);
      if (op < 35) {
        Put p = new Put(b(pick(rnd, ROWS)));
        for (int i = 0, n = 1 + rnd.nextInt(3); i < n; i++) {
          p.addColumn(b(pick(rnd, FAMILIES)), b(pick(rnd, QUALIFIERS)), 1 + rnd.nextInt(8), b("v" + rnd.nextInt(5)));
        }
        basalt.put(p);
        hbase.put(p);
      } else if (op < 50) {
        Delete d = randomDelete(rnd);
        basalt.delete(d);
        hbase.delete(d);
      } else if (op < 54) {
        Increment inc = new Increment(b(pick(rnd, ROWS))).addColumn(b("b"), b("counter"), rnd.nextInt(7) - 3);
        long vb = Bytes.toLong(basalt.increment(inc).getValue(b("b"), b("counter")));
        long vh = Bytes.toLong(hbase.increment(inc).getValue(b("b"), b("counter")));
        assertThat(vb).as(where + "increment value").isEqualTo(vh);
      } else if (op < 60) {
        byte[] row = b(pick(rnd, ROWS));
        CheckAndMutate cam = CheckAndMutate.newBuilder(row)
            .ifMatches(b(pick(rnd, FAMILIES)), b(pick(rnd, QUALIFIERS)), pick(rnd, CompareOperator.values()), b("v" + rnd.nextInt(5)))
            .build(new Put(row).addColumn(b("a"), b("cam"), 1 + rnd.nextInt(8), b("c" + step)));
        if (cam.getCompareOp() == CompareOperator.NO_OP) {
          continue;
        }
        assertThat(basalt.checkAndMutate(cam).isSuccess()).as(where + "checkAndMutate").isEqualTo(hbase.checkAndMutate(cam).isSuccess());
      } else if (op < 80) {
        Get g = new Get(b(pick(rnd, ROWS))).readVersions(1 + rnd.nextInt(4));
        if (rnd.nextBoolean()) {
          long min = rnd.nextInt(6);
          g.setTimeRange(min, min + 1 + rnd.nextInt(6));
        }
        if (rnd.nextInt(3) == 0) {
          g.addFamily(b(pick(rnd, FAMILIES)));
        } else if (rnd.nextInt(3) == 0) {
          g.addColumn(b(pick(rnd, FAMILIES)), b(pick(rnd, QUALIFIERS)));
        }
        if (rnd.nextInt(4) == 0) {
          g.setFilter(randomFilter(rnd));
        }
        assertThat(show(basalt.get(g))).as(where + g).isEqualTo(show(hbase.get(g)));
      } else {
        Scan s = new Scan().readVersions(1 + rnd.nextInt(3)).setCaching(1 + rnd.nextInt(4));
        if (rnd.nextBoolean()) {
          s.withStartRow(b(pick(rnd, ROWS)), rnd.nextBoolean());
        }
        if (rnd.nextBoolean()) {
          s.withStopRow(b(pick(rnd, ROWS)), rnd.nextBoolean());
        }
        if (rnd.nextInt(4) == 0) {
          byte[] start = s.getStartRow();
          s.setReversed(true);
          // HBase refuses reversed scans that load column families on demand (SingleColumnValueFilter).
          s.setLoadColumnFamiliesOnDemand(false);
          s.withStartRow(s.getStopRow(), s.includeStopRow()).withStopRow(start, s.includeStartRow());
        }
        if (rnd.nextInt(3) == 0) {
          s.setFilter(randomFilter(rnd));
        }
        if (rnd.nextInt(5) == 0) {
          s.setLimit(1 + rnd.nextInt(3));
        }
        assertThat(scan(basalt, s)).as(where + s).isEqualTo(scan(hbase, s));
      }
    }
  }

  private static Delete randomDelete(Random rnd) {
    Delete d = new Delete(b(pick(rnd, ROWS)));
    byte[] fam = b(pick(rnd, FAMILIES));
    byte[] q = b(pick(rnd, QUALIFIERS));
    long ts = 1 + rnd.nextInt(8);
    switch (rnd.nextInt(6)) {
      case 0 -> d.addColumn(fam, q, ts);
      case 1 -> d.addColumn(fam, q);
      case 2 -> d.addColumns(fam, q, ts);
      case 3 -> d.addFamily(fam, ts);
      case 4 -> d.addFamilyVersion(fam, ts);
      default -> d.setTimestamp(ts);
    }
    return d;
  }

  private static Filter randomFilter(Random rnd) {
    return switch (rnd.nextInt(6)) {
      case 0 -> new PrefixFilter(b(rnd.nextBoolean() ? "r" : "s1"));
      case 1 -> new QualifierFilter(CompareOperator.GREATER_OR_EQUAL, new BinaryComparator(b("q1")));
      case 2 -> new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(b("v" + rnd.nextInt(5))));
      case 3 -> {
        SingleColumnValueFilter f = new SingleColumnValueFilter(b("a"), b("q"), CompareOperator.LESS_OR_EQUAL, b("v2"));
        f.setFilterIfMissing(rnd.nextBoolean());
        yield f;
      }
      case 4 -> new ColumnPrefixFilter(b("q"));
      default -> new FilterList(FilterList.Operator.MUST_PASS_ONE, new PrefixFilter(b("r1")),
          new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(b("v0"))));
    };
  }

  private static List<String> scan(Table t, Scan s) throws IOException {
    List<String> out = new ArrayList<>();
    try (ResultScanner rs = t.getScanner(s)) {
      for (Result r : rs) {
        out.add(Bytes.toString(r.getRow()) + show(r));
      }
    }
    return out;
  }

  private static List<String> show(Result r) {
    List<String> out = new ArrayList<>();
    for (Cell c : r.rawCells() == null ? new Cell[0] : r.rawCells()) {
      boolean counter = Bytes.toString(CellUtil.cloneQualifier(c)).equals("counter");
      out.add(Bytes.toString(CellUtil.cloneFamily(c)) + ":" + Bytes.toString(CellUtil.cloneQualifier(c)) + "@"
          // Increments are stamped "now" by each server: compare their values, not their timestamps.
          + (counter ? "now" : Long.toString(c.getTimestamp())) + "="
          + (counter ? Long.toString(Bytes.toLong(CellUtil.cloneValue(c))) : Bytes.toString(CellUtil.cloneValue(c))));
    }
    return out;
  }

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  private static <T> T pick(Random rnd, T[] options) {
    return options[rnd.nextInt(options.length)];
  }
}
