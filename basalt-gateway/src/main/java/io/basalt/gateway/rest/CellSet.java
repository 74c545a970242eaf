package io.basalt.gateway.rest;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Result;

/**
 * HBase REST's CellSet: rows of cells, each cell naming its column as {@code family:qualifier}. A timestamp of
 * {@link HConstants#LATEST_TIMESTAMP} means "none given" (the server stamps the write).
 */
record CellSet(List<Row> rows) {
  /** A request's row may leave the key out (null): the URL's row stands in. */
  record Row(byte[] key, List<Cell> cells) {}

  record Cell(byte[] column, long timestamp, byte[] value) {}

  static CellSet of(List<Result> results) {
    List<Row> rows = new ArrayList<>();
    for (Result result : results) {
      if (result == null || result.isEmpty()) {
        continue;
      }
      List<Cell> cells = new ArrayList<>();
      for (org.apache.hadoop.hbase.Cell c : result.rawCells()) {
        cells.add(of(c));
      }
      rows.add(new Row(result.getRow(), cells));
    }
    return new CellSet(rows);
  }

  static Cell of(org.apache.hadoop.hbase.Cell c) {
    return new Cell(CellUtil.makeColumn(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c)), c.getTimestamp(),
        CellUtil.cloneValue(c));
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  int cellCount() {
    return rows.stream().mapToInt(r -> r.cells().size()).sum();
  }
}
