package io.basalt.bench.compare.ycsb;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;

/**
 * YCSB's DB interface on the HBase 2 client (YCSB publishes no HBase 2 binding): one row per record, one column
 * per field in one family, every write one RPC (YCSB's hbase binding with clientbuffering=false). One instance per
 * client thread, sharing the bench's connection; failures are counted and returned as {@link Status#ERROR}, as
 * YCSB expects of a binding.
 */
public final class HBaseBinding extends DB {
  static final byte[] FAMILY = Bytes.toBytes("family");

  private final Table table;
  private final AtomicLong errors = new AtomicLong();

  public HBaseBinding(Connection connection, TableName tableName) throws IOException {
    this.table = connection.getTable(tableName);
  }

  /** Operations that failed or found nothing where the workload expected a record. */
  public long errors() {
    return errors.get();
  }

  @Override
  public Status read(String tableName, String key, Set<String> fields, Map<String, ByteIterator> result) {
    Get get = new Get(Bytes.toBytes(key));
    if (fields == null) {
      get.addFamily(FAMILY);
    } else {
      for (String f : fields) {
        get.addColumn(FAMILY, Bytes.toBytes(f));
      }
    }
    try {
      Result r = table.get(get);
      if (r.isEmpty()) {
        errors.incrementAndGet();
        return Status.NOT_FOUND;
      }
      copy(r, result);
      return Status.OK;
    } catch (IOException e) {
      return failed();
    }
  }

  @Override
  public Status scan(String tableName, String startKey, int recordCount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    Scan scan = new Scan().withStartRow(Bytes.toBytes(startKey)).setLimit(recordCount).setCaching(recordCount);
    if (fields == null) {
      scan.addFamily(FAMILY);
    } else {
      for (String f : fields) {
        scan.addColumn(FAMILY, Bytes.toBytes(f));
      }
    }
    try (ResultScanner scanner = table.getScanner(scan)) {
      for (Result r : scanner) {
        HashMap<String, ByteIterator> row = new HashMap<>();
        copy(r, row);
        result.add(row);
      }
      return Status.OK;
    } catch (IOException e) {
      return failed();
    }
  }

  @Override
  public Status update(String tableName, String key, Map<String, ByteIterator> values) {
    return put(key, values);
  }

  @Override
  public Status insert(String tableName, String key, Map<String, ByteIterator> values) {
    return put(key, values);
  }

  @Override
  public Status delete(String tableName, String key) {
    try {
      table.delete(new Delete(Bytes.toBytes(key)));
      return Status.OK;
    } catch (IOException e) {
      return failed();
    }
  }

  @Override
  public void cleanup() {
    try {
      table.close();
    } catch (IOException ignored) {
      // the connection outlives this binding
    }
  }

  private Status put(String key, Map<String, ByteIterator> values) {
    Put put = new Put(Bytes.toBytes(key));
    for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
      put.addColumn(FAMILY, Bytes.toBytes(e.getKey()), e.getValue().toArray());
    }
    try {
      table.put(put);
      return Status.OK;
    } catch (IOException e) {
      return failed();
    }
  }

  private Status failed() {
    errors.incrementAndGet();
    return Status.ERROR;
  }

  private static void copy(Result r, Map<String, ByteIterator> into) {
    for (Cell c : r.rawCells()) {
      into.put(Bytes.toString(CellUtil.cloneQualifier(c)), new ByteArrayByteIterator(CellUtil.cloneValue(c)));
    }
  }
}
