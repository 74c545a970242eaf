package io.basalt.gateway.rest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Table;

/**
 * {@code /TABLE/scanner}: POST a Scanner model to open one (201, its URL in Location), GET
 * {@code /TABLE/scanner/ID} for the next batch of cells (204 once exhausted), DELETE it when done.
 */
final class ScannerResource {
  private final Connection connection;
  private final RestScanners scanners;

  ScannerResource(Connection connection, RestScanners scanners) {
    this.connection = connection;
    this.scanners = scanners;
  }

  RestReply create(RestRequest req, TableName name, String baseUrl) throws IOException {
    ScannerSpec spec = ScannerSpec.decode(req.body(), req.content());
    try (Admin admin = connection.getAdmin()) {
      if (!admin.tableExists(name)) {
        throw RestException.notFound("table " + name + " does not exist");
      }
    }
    ResultScanner scanner;
    try (Table table = connection.getTable(name)) {
      scanner = table.getScanner(spec.toScan());
    }
    String id = scanners.add(name, spec.batch(), scanner);
    return RestReply.empty(201).with("Location", baseUrl + "/" + name.getNameAsString() + "/scanner/" + id);
  }

  RestReply next(RestRequest req, TableName name, String id) throws IOException {
    RestScanners.Open scanner = scanners.get(id);
    if (scanner == null || !scanner.table.equals(name)) {
      throw RestException.notFound("no scanner " + id + " on table " + name + " (deleted, expired or never made)");
    }
    Media media = req.accepted(Media.XML);
    // As HBase: c caps the cells of this GET (default: the scanner's batch), n the rows; 0 or less lifts n.
    long maxCells = req.longParam("c", 0);
    long maxRows = req.longParam("n", 0);
    int max = media == Media.BINARY ? 1 : maxCells > 0 ? (int) Math.min(maxCells, Integer.MAX_VALUE) : scanner.batch;
    int rows = media == Media.BINARY || maxRows <= 0 ? 0 : (int) Math.min(maxRows, Integer.MAX_VALUE);
    List<Cell> cells = scanner.next(max, rows);
    if (cells.isEmpty()) {
      return RestReply.empty(204);
    }
    if (media == Media.BINARY) {
      Cell cell = cells.get(0);
      Base64.Encoder b64 = Base64.getEncoder();
      return RestReply.ok(Media.BINARY, CellUtil.cloneValue(cell))
          .with("X-Row", b64.encodeToString(CellUtil.cloneRow(cell)))
          .with("X-Column", b64.encodeToString(CellSet.of(cell).column()))
          .with("X-Timestamp", Long.toString(cell.getTimestamp()));
    }
    return RestReply.ok(media, CellSetCodec.encode(group(cells), media));
  }

  /** 200 even for a scanner that is gone or never was, as HBase's ScannerInstanceResource answers. */
  RestReply delete(TableName name, String id) {
    RestScanners.Open scanner = scanners.get(id);
    if (scanner != null && scanner.table.equals(name)) {
      scanners.remove(id);
    }
    return RestReply.empty(200);
  }

  /** Consecutive cells of one row form one Row, as HBase's scanner batches are shaped. */
  private static CellSet group(List<Cell> cells) {
    List<CellSet.Row> rows = new ArrayList<>();
    byte[] rowKey = null;
    List<CellSet.Cell> current = null;
    for (Cell cell : cells) {
      byte[] key = CellUtil.cloneRow(cell);
      if (rowKey == null || !Arrays.equals(rowKey, key)) {
        rowKey = key;
        current = new ArrayList<>();
        rows.add(new CellSet.Row(key, current));
      }
      current.add(CellSet.of(cell));
    }
    return new CellSet(rows);
  }
}
