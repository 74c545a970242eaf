package io.basalt.bench.replication;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Brings the cluster to a number of regions through the unmodified HBase client: tables of at most
 * {@code regionsPerTable} regions each, created with split keys ({@code Admin.createTable(desc, splitKeys)}; the
 * master gives each region its copies as it creates it), then a few rows written into every new region so each
 * replica group has taken a replicated write (HBase's default durability: a majority acknowledges). Region
 * {@code i} of a table holds the rows starting with {@code r%05d} of {@code i}.
 */
final class MemberLoad {
  static final byte[] FAMILY = Bytes.toBytes("f");
  private static final byte[] QUALIFIER = Bytes.toBytes("q");

  /** How long the additions of one step took, and how far they got. */
  record Growth(int regionsAdded, double createSeconds, double writeSeconds, String failure) {}

  private final Connection conn;
  private final Admin admin;
  private final int regionsPerTable;
  private final int rowsPerRegion;
  private final PrintStream out;
  private int regions;
  private int tables;

  MemberLoad(Connection conn, Admin admin, int regionsPerTable, int rowsPerRegion, PrintStream out) {
    this.conn = conn;
    this.admin = admin;
    this.regionsPerTable = regionsPerTable;
    this.rowsPerRegion = rowsPerRegion;
    this.out = out;
  }

  /** Regions created so far (whole tables). */
  int regions() {
    return regions;
  }

  /**
   * Adds tables until there are {@code target} regions. Stops at the first failure, recording it (the regions
   * the failed create did make stay; the caller counts members on disk).
   */
  Growth growTo(int target) {
    long createNanos = 0;
    long writeNanos = 0;
    int added = 0;
    while (regions < target) {
      int n = Math.min(regionsPerTable, target - regions);
      TableName name = TableName.valueOf(String.format("members_%03d", tables));
      long t0 = System.nanoTime();
      try {
        admin.createTable(TableDescriptorBuilder.newBuilder(name)
            .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY)).build(), splitKeys(n));
      } catch (IOException | RuntimeException e) {
        createNanos += System.nanoTime() - t0;
        return new Growth(added, createNanos / 1e9, writeNanos / 1e9,
            "creating table " + name + " (" + n + " regions, after " + regions + " regions) failed after "
                + String.format("%.1f s: %s", (System.nanoTime() - t0) / 1e9, firstLine(e)));
      }
      long t1 = System.nanoTime();
      createNanos += t1 - t0;
      tables++;
      regions += n;
      added += n;
      try {
        write(name, n);
      } catch (IOException | RuntimeException e) {
        writeNanos += System.nanoTime() - t1;
        return new Growth(added, createNanos / 1e9, writeNanos / 1e9,
            "writing into table " + name + " (" + n + " regions) failed: " + firstLine(e));
      }
      writeNanos += System.nanoTime() - t1;
      out.printf("  table %s: %d regions created in %.1f s, %d rows written in %.1f s (%d regions in all)%n", name,
          n, (t1 - t0) / 1e9, n * rowsPerRegion, (System.nanoTime() - t1) / 1e9, regions);
    }
    return new Growth(added, createNanos / 1e9, writeNanos / 1e9, null);
  }

  /** {@code n - 1} split keys: region {@code i} starts at {@code r%05d} of {@code i} (region 0 at the empty key). */
  static byte[][] splitKeys(int n) {
    byte[][] keys = new byte[Math.max(0, n - 1)][];
    for (int i = 1; i < n; i++) {
      keys[i - 1] = Bytes.toBytes(String.format("r%05d", i));
    }
    return keys;
  }

  private void write(TableName name, int n) throws IOException {
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < rowsPerRegion; j++) {
        puts.add(new Put(Bytes.toBytes(String.format("r%05d-%d", i, j))).addColumn(FAMILY, QUALIFIER,
            Bytes.toBytes("value " + i + "/" + j)));
      }
    }
    try (Table t = conn.getTable(name)) {
      t.put(puts);
    }
  }

  static String firstLine(Throwable e) {
    String m = e.getMessage() == null ? e.toString() : e.getClass().getSimpleName() + ": " + e.getMessage();
    return m.lines().findFirst().orElse(m);
  }
}
