package io.basalt.it;

import org.apache.hadoop.hbase.filter.FilterBase;
import org.apache.hadoop.hbase.util.Bytes;

/** Test filter: spends 50 ms on each row and keeps only rows starting with "keep". */
public final class SlowFilter extends FilterBase {
  @Override
  public boolean filterRowKey(org.apache.hadoop.hbase.Cell firstRowCell) {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return !Bytes.toString(firstRowCell.getRowArray(), firstRowCell.getRowOffset(), firstRowCell.getRowLength()).startsWith("keep");
  }

  @Override
  public byte[] toByteArray() {
    return new byte[0];
  }

  /** Found by reflection by HBase's filter deserializer. */
  public static SlowFilter parseFrom(byte[] bytes) {
    return new SlowFilter();
  }
}
