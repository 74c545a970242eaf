package io.basalt.server.convert;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.cell.Cell;
import io.basalt.storage.cell.CellType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hbase.ByteBufferKeyValue;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.junit.jupiter.api.Test;

/** Basalt's weights against a scan's size limit are HBase's own heap sizes for unflushed cells. */
class ScanSizesTest {
  private static Cell cell(String row, String q, String value) {
    return new Cell(b(row), b("f"), b(q), 5, CellType.PUT, b(value));
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static long hbaseHeapSize(Cell c) {
    KeyValue kv = Cells.toHBase(c);
    return new ByteBufferKeyValue(ByteBuffer.wrap(kv.getBuffer()), kv.getOffset(), kv.getLength()).heapSize();
  }

  @Test
  void heapSizeIsHBasesForAMemStoreCell() {
    for (String value : new String[] {"", "v", "vxxxxxxx", "x".repeat(1000)}) {
      for (String q : new String[] {"", "q", "w01"}) {
        Cell c = cell("r0", q, value);
        assertThat(ScanSizes.heapSize(c)).as(q + "=" + value).isEqualTo(hbaseHeapSize(c));
      }
    }
  }

  @Test
  void aKeyOnlyCellWeighsWhatHBasesWrapperWeighs() {
    FilterAdapter adapter = new FilterAdapter(new KeyOnlyFilter(true));
    Cell original = cell("r0", "q", "some value");
    Cell transformed = adapter.transformCell(original);
    assertThat(transformed.value()).hasSize(4); // lenAsVal: the value's length
    assertThat(adapter.weight(transformed)).isGreaterThan(hbaseHeapSize(original));
    // Once weighed, a cell is forgotten; an untransformed cell weighs its own heap size.
    assertThat(adapter.weight(transformed)).isEqualTo(ScanSizes.heapSize(transformed));
    assertThat(adapter.weight(original)).isEqualTo(hbaseHeapSize(original));
  }

  @Test
  void theCallLimitIsTheScansNeverAboveTheServers() {
    long server = 100L << 20;
    assertThat(ScanSizes.callLimit(-1, server)).isEqualTo(server);
    assertThat(ScanSizes.callLimit(1000, server)).isEqualTo(1000);
    assertThat(ScanSizes.callLimit(Long.MAX_VALUE, server)).isEqualTo(server);
    assertThat(ScanSizes.callLimit(1000, 10)).as("the server's cap wins").isEqualTo(10);
  }
}
