package io.basalt.server.master;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/** A new table's regions from its split keys, refused as HBase refuses empty or repeated keys. */
final class RegionLayout {
  private RegionLayout() {}

  /** One region per key interval, all named with {@code regionId}. */
  static List<RegionInfo> of(TableName name, byte[][] splitKeys, long regionId) throws DoNotRetryIOException {
    byte[][] keys = splitKeys == null ? new byte[0][] : splitKeys.clone();
    Arrays.sort(keys, Bytes.BYTES_COMPARATOR);
    for (int i = 0; i < keys.length; i++) {
      if (keys[i].length == 0) {
        throw new DoNotRetryIOException("Empty split key must not be passed in the split keys.");
      }
      if (i > 0 && Bytes.equals(keys[i - 1], keys[i])) {
        throw new DoNotRetryIOException("All split keys must be unique, found duplicate: " + Bytes.toStringBinary(keys[i]));
      }
    }
    List<RegionInfo> out = new ArrayList<>();
    byte[] start = new byte[0];
    for (int i = 0; i <= keys.length; i++) {
      byte[] end = i < keys.length ? keys[i] : new byte[0];
      out.add(RegionInfoBuilder.newBuilder(name).setStartKey(start).setEndKey(end).setRegionId(regionId).build());
      start = end;
    }
    return out;
  }
}
