package io.basalt.it;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/** Small helpers shared by the dual-target tests. */
final class Fixtures {
  static final byte[] CF = Bytes.toBytes("cf");
  static final byte[] Q = Bytes.toBytes("q");

  private Fixtures() {}

  static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  static String s(byte[] b) {
    return b == null ? null : Bytes.toString(b);
  }

  static ColumnFamilyDescriptor family(String name, int maxVersions) {
    return ColumnFamilyDescriptorBuilder.newBuilder(b(name)).setMaxVersions(maxVersions).build();
  }

  /** Creates a table (replacing a leftover of the same name), optionally pre-split. */
  static TableName createTable(Connection conn, String name, byte[][] splits, ColumnFamilyDescriptor... families)
      throws IOException {
    TableName t = TableName.valueOf(name);
    try (Admin admin = conn.getAdmin()) {
      if (admin.tableExists(t)) {
        if (admin.isTableEnabled(t)) {
          admin.disableTable(t);
        }
        admin.deleteTable(t);
      }
      TableDescriptorBuilder desc = TableDescriptorBuilder.newBuilder(t);
      if (families.length == 0) {
        desc.setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF));
      }
      for (ColumnFamilyDescriptor f : families) {
        desc.setColumnFamily(f);
      }
      admin.createTable(desc.build(), splits == null || splits.length == 0 ? null : splits);
    }
    return t;
  }

  static TableName createTable(Connection conn, String name, ColumnFamilyDescriptor... families) throws IOException {
    return createTable(conn, name, null, families);
  }

  static byte[][] splits(String... keys) {
    byte[][] out = new byte[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      out[i] = b(keys[i]);
    }
    return out;
  }

  /** Every Result of the scan, in order. */
  static List<Result> scan(Table table, Scan scan) throws IOException {
    List<Result> out = new ArrayList<>();
    try (ResultScanner s = table.getScanner(scan)) {
      for (Result r : s) {
        out.add(r);
      }
    }
    return out;
  }

  /** The row keys of the scan's Results, in order (a row split by setBatch appears once per part). */
  static List<String> rows(Table table, Scan scan) throws IOException {
    List<String> out = new ArrayList<>();
    for (Result r : scan(table, scan)) {
      out.add(s(r.getRow()));
    }
    return out;
  }

  /** The values of a column's versions in the Result, newest first. */
  static List<String> values(Result r, byte[] family, byte[] qualifier) {
    List<String> out = new ArrayList<>();
    for (Cell c : r.getColumnCells(family, qualifier)) {
      out.add(s(CellUtil.cloneValue(c)));
    }
    return out;
  }

  /** The timestamps of a column's versions in the Result, newest first. */
  static List<Long> timestamps(Result r, byte[] family, byte[] qualifier) {
    List<Long> out = new ArrayList<>();
    for (Cell c : r.getColumnCells(family, qualifier)) {
      out.add(c.getTimestamp());
    }
    return out;
  }

  /** "family:qualifier=value" for every cell of the Result, in cell order. */
  static List<String> cells(Result r) {
    List<String> out = new ArrayList<>();
    for (Cell c : r.rawCells()) {
      out.add(s(CellUtil.cloneFamily(c)) + ":" + s(CellUtil.cloneQualifier(c)) + "=" + s(CellUtil.cloneValue(c)));
    }
    return out;
  }
}
