package io.basalt.gateway.thrift;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Iterator;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.metrics.ScanMetrics;
import org.junit.jupiter.api.Test;

class ScannerTableTest {
  /** A scanner that only counts closes. */
  private static final class CountingScanner implements ResultScanner {
    final AtomicInteger closes = new AtomicInteger();

    @Override
    public Result next() {
      return null;
    }

    @Override
    public void close() {
      closes.incrementAndGet();
    }

    @Override
    public boolean renewLease() {
      return true;
    }

    @Override
    public ScanMetrics getScanMetrics() {
      return null;
    }

    @Override
    public Iterator<Result> iterator() {
      return java.util.Collections.emptyIterator();
    }
  }

  @Test
  void idsAreDistinctAndCloseForgets() {
    ScannerTable table = new ScannerTable(1_000, () -> 0);
    CountingScanner a = new CountingScanner();
    int first = table.add(a, false);
    int second = table.add(new CountingScanner(), true);
    assertThat(first).isNotEqualTo(second);
    assertThat(table.get(second).sortColumns()).isTrue();
    assertThat(table.close(first)).isTrue();
    assertThat(a.closes).hasValue(1);
    assertThat(table.get(first)).isNull();
    assertThat(table.close(first)).isFalse();
  }

  @Test
  void idleScannersExpireButUsedOnesStay() {
    AtomicLong now = new AtomicLong();
    ScannerTable table = new ScannerTable(100, now::get);
    CountingScanner idle = new CountingScanner();
    CountingScanner busy = new CountingScanner();
    int idleId = table.add(idle, false);
    int busyId = table.add(busy, false);
    now.set(80);
    table.get(busyId);
    now.set(150);
    table.expireIdle();
    assertThat(table.get(idleId)).isNull();
    assertThat(idle.closes).hasValue(1);
    assertThat(table.get(busyId)).isNotNull();
    now.set(400);
    int fresh = table.add(new CountingScanner(), false);
    assertThat(busy.closes).as("swept by the open, without an explicit expireIdle").hasValue(1);
    assertThat(table.get(fresh)).isNotNull();
    table.close();
    assertThat(table.size()).isZero();
  }
}
