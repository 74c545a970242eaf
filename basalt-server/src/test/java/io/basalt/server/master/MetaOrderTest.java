package io.basalt.server.master;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.hadoop.hbase.MetaCellComparator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** Meta rows sort by table, then start key, then region id: start keys below ',' must not mis-sort. */
class MetaOrderTest {
  @Test
  void metaOrderIsNotByteOrder() {
    TableName t = TableName.valueOf("t1");
    byte[] low = RegionInfoBuilder.newBuilder(t).setStartKey(Bytes.toBytes("a!")).setRegionId(1).build().getRegionName();
    byte[] high = RegionInfoBuilder.newBuilder(t).setStartKey(Bytes.toBytes("a")).setRegionId(1).build().getRegionName();
    byte[] first = RegionInfoBuilder.newBuilder(t).setRegionId(1).build().getRegionName();
    TreeMap<byte[], String> rows = new TreeMap<>(MetaCellComparator.META_COMPARATOR::compareRows);
    rows.put(low, "start a!");
    rows.put(high, "start a");
    rows.put(first, "start empty");
    rows.put(t.getName(), "table state");
    rows.put(TableName.valueOf("t0").getName(), "other table");
    assertThat(new ArrayList<>(rows.values())).containsExactly("other table", "table state", "start empty", "start a", "start a!");
    // Plain byte order would put "a!" (0x21) before "a," — the comparator must not.
    assertThat(Bytes.compareTo(low, high)).isLessThan(0);
    assertThat(List.copyOf(rows.keySet()).indexOf(high)).isLessThan(List.copyOf(rows.keySet()).indexOf(low));
  }
}
