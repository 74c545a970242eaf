package io.basalt.bench.compare.workload;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class PeRowsTest {
  @Test
  void keysAreFormattedAsPerformanceEvaluationDoes() {
    assertThat(Bytes.toString(PeRows.key(0))).isEqualTo(String.format("%026d", 0));
    assertThat(Bytes.toString(PeRows.key(123_456_789L))).isEqualTo(String.format("%026d", 123_456_789L));
  }

  @Test
  void eightRegionsSplitTheKeySpaceEvenly() {
    byte[][] splits = PeRows.splits(800);
    assertThat(splits.length).isEqualTo(7);
    assertThat(Bytes.toString(splits[0])).isEqualTo(String.format("%026d", 100));
    assertThat(Bytes.toString(splits[6])).isEqualTo(String.format("%026d", 700));
  }
}
