package io.basalt.it;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.ColumnCountGetFilter;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.ColumnValueFilter;
import org.apache.hadoop.hbase.filter.DependentColumnFilter;
import org.apache.hadoop.hbase.filter.FamilyFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.InclusiveStopFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.MultiRowRangeFilter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.filter.RowFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueExcludeFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.SkipFilter;
import org.apache.hadoop.hbase.filter.TimestampsFilter;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.filter.WhileMatchFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Random instances of every standard filter class the differential test covers, alone or nested in
 * {@link FilterList}s, over the test's rows, families, qualifiers, values and timestamps.
 */
final class DiffFilters {
  /** Every filter kind {@link #random} draws from, so a run can report which kinds it covered. */
  static final int KINDS = 21;

  private final String[] rows;
  private final String[] families;
  private final String[] qualifiers;

  DiffFilters(String[] rows, String[] families, String[] qualifiers) {
    this.rows = rows;
    this.families = families;
    this.qualifiers = qualifiers;
  }

  Filter random(Random rnd) {
    return random(rnd, 0);
  }

  private Filter random(Random rnd, int depth) {
    int kind = rnd.nextInt(depth < 2 ? KINDS : KINDS - 1);
    return switch (kind) {
      case 0 -> new PrefixFilter(b(rnd.nextBoolean() ? "r" : pick(rnd, rows)));
      case 1 -> new QualifierFilter(op(rnd), new BinaryComparator(b(pick(rnd, qualifiers))));
      case 2 -> new ValueFilter(op(rnd), value(rnd));
      case 3 -> {
        SingleColumnValueFilter f = new SingleColumnValueFilter(b(pick(rnd, families)), b(pick(rnd, qualifiers)),
            op(rnd), value(rnd));
        f.setFilterIfMissing(rnd.nextBoolean());
        f.setLatestVersionOnly(rnd.nextBoolean());
        yield f;
      }
      case 4 -> new ColumnPrefixFilter(b(rnd.nextBoolean() ? "q" : "w0"));
      case 5 -> new RowFilter(op(rnd), new BinaryComparator(b(pick(rnd, rows))));
      case 6 -> new FamilyFilter(op(rnd), new BinaryComparator(b(pick(rnd, families))));
      case 7 -> new KeyOnlyFilter(rnd.nextBoolean());
      case 8 -> new FirstKeyOnlyFilter();
      case 9 -> new ColumnPaginationFilter(1 + rnd.nextInt(3), rnd.nextInt(4));
      case 10 -> new ColumnPaginationFilter(1 + rnd.nextInt(3), b(pick(rnd, qualifiers)));
      case 11 -> new ColumnCountGetFilter(1 + rnd.nextInt(4));
      case 12 -> rnd.nextBoolean()
          ? new DependentColumnFilter(b(pick(rnd, families)), b(pick(rnd, qualifiers)))
          : new DependentColumnFilter(b(pick(rnd, families)), b(pick(rnd, qualifiers)), rnd.nextBoolean(), op(rnd),
              value(rnd));
      case 13 -> new SkipFilter(new ValueFilter(CompareOperator.NOT_EQUAL, value(rnd)));
      case 14 -> new WhileMatchFilter(rnd.nextBoolean()
          ? new RowFilter(CompareOperator.LESS, new BinaryComparator(b(pick(rnd, rows))))
          : new ValueFilter(CompareOperator.NOT_EQUAL, value(rnd)));
      case 15 -> {
        List<Long> ts = new ArrayList<>();
        for (int i = 0, n = 1 + rnd.nextInt(3); i < n; i++) {
          ts.add(1L + rnd.nextInt(8));
        }
        yield new TimestampsFilter(ts, rnd.nextBoolean());
      }
      case 16 -> {
        List<MultiRowRangeFilter.RowRange> ranges = new ArrayList<>();
        for (int i = 0, n = 1 + rnd.nextInt(2); i < n; i++) {
          String x = pick(rnd, rows);
          String y = pick(rnd, rows);
          String lo = x.compareTo(y) <= 0 ? x : y;
          String hi = x.compareTo(y) <= 0 ? y : x;
          boolean single = lo.equals(hi); // a one-row range must include both ends to be valid
          ranges.add(new MultiRowRangeFilter.RowRange(lo, single || rnd.nextBoolean(), hi, single || rnd.nextBoolean()));
        }
        yield new MultiRowRangeFilter(ranges);
      }
      case 17 -> new InclusiveStopFilter(b(pick(rnd, rows)));
      case 18 -> {
        SingleColumnValueExcludeFilter f = new SingleColumnValueExcludeFilter(b(pick(rnd, families)),
            b(pick(rnd, qualifiers)), op(rnd), value(rnd));
        f.setFilterIfMissing(rnd.nextBoolean());
        yield f;
      }
      case 19 -> new ColumnValueFilter(b(pick(rnd, families)), b(pick(rnd, qualifiers)), op(rnd), value(rnd));
      default -> {
        List<Filter> members = new ArrayList<>();
        for (int i = 0, n = 2 + rnd.nextInt(2); i < n; i++) {
          members.add(random(rnd, depth + 1));
        }
        yield new FilterList(rnd.nextBoolean() ? FilterList.Operator.MUST_PASS_ALL : FilterList.Operator.MUST_PASS_ONE,
            members);
      }
    };
  }

  private static CompareOperator op(Random rnd) {
    CompareOperator[] ops = {CompareOperator.LESS, CompareOperator.LESS_OR_EQUAL, CompareOperator.EQUAL,
        CompareOperator.NOT_EQUAL, CompareOperator.GREATER_OR_EQUAL, CompareOperator.GREATER};
    return ops[rnd.nextInt(ops.length)];
  }

  private static BinaryComparator value(Random rnd) {
    return new BinaryComparator(b("v" + rnd.nextInt(5)));
  }

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  private static <T> T pick(Random rnd, T[] options) {
    return options[rnd.nextInt(options.length)];
  }
}
