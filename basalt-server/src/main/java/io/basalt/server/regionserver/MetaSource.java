package io.basalt.server.regionserver;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;

/** The catalog as HBase clients read it: {@code hbase:meta}, served read-only by the region server. */
public interface MetaSource {
  Result get(Get get) throws IOException;

  /** Every matching row of the scan, in meta order (the catalog is small). */
  List<Result> scan(Scan scan) throws IOException;
}
