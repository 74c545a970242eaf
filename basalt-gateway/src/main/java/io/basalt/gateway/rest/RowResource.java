package io.basalt.gateway.rest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.ParseFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * {@code /TABLE/ROW...} (cells and rows: GET, PUT/POST, DELETE), {@code /TABLE/multiget} and the stateless scans
 * {@code /TABLE/*} and {@code /TABLE/PREFIX*}, as HBase's RowResource, MultiRowResource and TableScanResource.
 */
final class RowResource {
  private final Connection connection;
  private final CheckedMutations checked;

  RowResource(Connection connection) {
    this.connection = connection;
    this.checked = new CheckedMutations(connection);
  }

  RestReply get(RestRequest req, TableName name, List<String> path) throws IOException {
    if (path.size() == 1 && path.get(0).endsWith("*")) {
      return tableScan(req, name, path.get(0));
    }
    RowSpec spec = RowSpec.parse(path, req.param("v"));
    Media media = req.accepted(Media.XML);
    if (media == Media.BINARY) {
      return binaryGet(name, spec);
    }
    List<Result> results = new ArrayList<>();
    try (Table table = connection.getTable(name)) {
      if (spec.prefix()) {
        Scan scan = new Scan().setStartStopRowForPrefixScan(spec.row());
        narrow(scan, spec);
        try (ResultScanner scanner = table.getScanner(scan)) {
          scanner.forEach(results::add);
        }
      } else {
        results.add(table.get(get(spec.row(), spec)));
      }
    }
    return cellSetReply(CellSet.of(results), media);
  }

  /** One cell's value as the body, its timestamp in X-Timestamp: a single FAMILY:QUALIFIER is required. */
  private RestReply binaryGet(TableName name, RowSpec spec) throws IOException {
    if (spec.prefix() || spec.columns().size() != 1 || RowSpec.split(spec.columns().get(0))[1] == null) {
      throw RestException.badRequest("application/octet-stream needs exactly one FAMILY:QUALIFIER in the path");
    }
    Result result;
    try (Table table = connection.getTable(name)) {
      result = table.get(get(spec.row(), spec).readVersions(1));
    }
    if (result.isEmpty()) {
      throw RestException.notFound("row " + Bytes.toStringBinary(spec.row()) + " has no such cell");
    }
    org.apache.hadoop.hbase.Cell cell = result.rawCells()[0];
    return RestReply.ok(Media.BINARY, org.apache.hadoop.hbase.CellUtil.cloneValue(cell))
        .with("X-Timestamp", Long.toString(cell.getTimestamp()));
  }

  RestReply multiGet(RestRequest req, TableName name) throws IOException {
    List<String> rows = req.params("row");
    if (rows.isEmpty()) {
      throw RestException.badRequest("multiget needs at least one row= parameter");
    }
    String versions = req.param("v");
    // column=cf:a,cf2 applies to every row, on top of any columns a row parameter names itself (HBase's
    // MultiRowResource).
    String columns = req.param("column");
    List<Get> gets = new ArrayList<>();
    for (String row : rows) {
      // A row parameter may carry its own columns and time, as a path would: row/cf:q/ts.
      List<String> parts = new ArrayList<>(List.of(row.split("/", -1)));
      if (columns != null && !columns.isEmpty()) {
        if (parts.size() == 1) {
          parts.add(columns);
        } else {
          parts.set(1, parts.get(1).isEmpty() ? columns : parts.get(1) + "," + columns);
        }
      }
      RowSpec spec = RowSpec.parse(parts, versions);
      gets.add(get(spec.row(), spec));
    }
    Result[] results;
    try (Table table = connection.getTable(name)) {
      results = table.get(gets);
    }
    return cellSetReply(CellSet.of(List.of(results)), req.accepted(Media.XML));
  }

  /** PUT and POST: a CellSet body, or one raw value (application/octet-stream) for the cell the path names. */
  RestReply put(RestRequest req, TableName name, List<String> path) throws IOException {
    RowSpec spec = RowSpec.parse(path, null);
    if (spec.prefix()) {
      throw RestException.badRequest("cannot write to a row prefix");
    }
    String check = req.param("check");
    if (check != null && !check.isEmpty()) {
      return checked.apply(req, name, spec, check);
    }
    Media media = req.content();
    List<Put> puts = new ArrayList<>();
    if (media == Media.BINARY) {
      // As HBase's RowResource: X-Row and X-Column (raw, not base64) override the path's row and first column.
      byte[] row = req.cellHeader("X-Row") != null ? Bytes.toBytes(req.cellHeader("X-Row")) : spec.row();
      byte[] column = req.cellHeader("X-Column") != null ? Bytes.toBytes(req.cellHeader("X-Column"))
          : spec.columns().isEmpty() ? null : spec.columns().get(0);
      if (column == null) {
        throw RestException.badRequest("a raw value needs a FAMILY:QUALIFIER in the path or an X-Column header");
      }
      long ts = req.timestampHeader() != null ? CellSetCodec.parseLong(req.timestampHeader(), "X-Timestamp")
          : spec.exactTime() ? spec.endTime() : HConstants.LATEST_TIMESTAMP;
      puts.add(addCell(new Put(row), column, ts, req.body()));
    } else {
      CellSet set = CellSetCodec.decode(req.body(), media);
      for (CellSet.Row row : set.rows()) {
        Put put = new Put(row.key() != null ? row.key() : spec.row());
        int pathColumn = 0;
        for (CellSet.Cell cell : row.cells()) {
          // A cell without a column takes the path's next column, in order, as HBase's RowResource.
          byte[] column = cell.column() != null ? cell.column()
              : pathColumn < spec.columns().size() ? spec.columns().get(pathColumn++) : null;
          if (column == null) {
            throw RestException.badRequest("a Cell has no column and the path names none");
          }
          long ts = cell.timestamp() != HConstants.LATEST_TIMESTAMP ? cell.timestamp()
              : spec.exactTime() ? spec.endTime() : HConstants.LATEST_TIMESTAMP;
          addCell(put, column, ts, cell.value());
        }
        if (!put.isEmpty()) {
          puts.add(put);
        }
      }
      if (puts.isEmpty()) {
        throw RestException.badRequest("the CellSet holds no cells");
      }
    }
    try (Table table = connection.getTable(name)) {
      table.put(puts);
    }
    return RestReply.empty(200);
  }

  private static Put addCell(Put put, byte[] column, long ts, byte[] value) {
    byte[][] parts = RowSpec.split(column);
    if (parts[1] == null) {
      throw RestException.badRequest("column \"" + Bytes.toStringBinary(column)
          + "\" needs a qualifier: FAMILY:QUALIFIER");
    }
    return put.addColumn(parts[0], parts[1], ts, value);
  }

  /** A row, a family or a column; with a timestamp, every version up to and including it. */
  RestReply delete(TableName name, List<String> path) throws IOException {
    RowSpec spec = RowSpec.parse(path, null);
    if (spec.prefix()) {
      throw RestException.badRequest("cannot delete a row prefix");
    }
    Delete delete = spec.exactTime() ? new Delete(spec.row(), spec.endTime()) : new Delete(spec.row());
    for (byte[] column : spec.columns()) {
      byte[][] parts = RowSpec.split(column);
      if (parts[1] == null) {
        if (spec.exactTime()) {
          delete.addFamily(parts[0], spec.endTime());
        } else {
          delete.addFamily(parts[0]);
        }
      } else if (spec.exactTime()) {
        delete.addColumns(parts[0], parts[1], spec.endTime());
      } else {
        delete.addColumns(parts[0], parts[1]);
      }
    }
    try (Table table = connection.getTable(name)) {
      table.delete(delete);
    }
    return RestReply.empty(200);
  }

  /** {@code /TABLE/*} and {@code /TABLE/PREFIX*} with HBase's scan parameters; rows, not a scanner, come back. */
  private RestReply tableScan(RestRequest req, TableName name, String spec) throws IOException {
    Scan scan = new Scan();
    String prefix = spec.substring(0, spec.length() - 1);
    if (!prefix.isEmpty()) {
      scan.setStartStopRowForPrefixScan(Bytes.toBytes(prefix));
    }
    if (req.param("startrow") != null) {
      scan.withStartRow(Bytes.toBytes(req.param("startrow")));
    }
    if (req.param("endrow") != null) {
      scan.withStopRow(Bytes.toBytes(req.param("endrow")));
    }
    for (String column : req.params("column")) {
      byte[][] parts = RowSpec.split(Bytes.toBytes(column));
      if (parts[1] == null) {
        scan.addFamily(parts[0]);
      } else {
        scan.addColumn(parts[0], parts[1]);
      }
    }
    scan.setTimeRange(req.longParam("starttime", 0), req.longParam("endtime", HConstants.LATEST_TIMESTAMP));
    long versions = req.longParam("maxversions", 1);
    long limit = req.longParam("limit", Integer.MAX_VALUE);
    if (versions < 1 || limit < 1) {
      throw RestException.badRequest("maxversions and limit must be at least 1");
    }
    scan.readVersions((int) Math.min(versions, Integer.MAX_VALUE));
    scan.setLimit((int) Math.min(limit, Integer.MAX_VALUE));
    // As HBase's TableResource: batchsize caps the cells of one Result (a wide row comes as several Rows);
    // the rows per round trip and per protobuf chunk are the gateway's hbase.rest.scan.fetchsize.
    long batch = req.longParam("batchsize", -1);
    if (batch > 0) {
      scan.setBatch((int) Math.min(batch, Integer.MAX_VALUE));
    }
    scan.setCaching(Math.max(1, connection.getConfiguration().getInt(RestGatewayOptions.SCAN_FETCH_SIZE,
        RestGatewayOptions.DEFAULT_SCAN_FETCH_SIZE)));
    scan.setCacheBlocks(!"false".equals(req.param("cacheblocks")));
    scan.setReversed("true".equals(req.param("reversed")));
    if (req.param("filter") != null) {
      try {
        scan.setFilter(new ParseFilter().parseFilterString(req.param("filter")));
      } catch (IOException | IllegalArgumentException e) {
        throw RestException.badRequest("bad filter: " + e.getMessage());
      }
    }
    List<Result> results = new ArrayList<>();
    try (Table table = connection.getTable(name); ResultScanner scanner = table.getScanner(scan)) {
      scanner.forEach(results::add);
    }
    Media media = req.accepted(Media.XML);
    if (media == Media.PROTOBUF) {
      return RestReply.ok(media, protobufStream(results, scan.getCaching()));
    }
    return RestReply.ok(media, CellSetCodec.encode(CellSet.of(results), media));
  }

  /**
   * HBase's streamed protobuf scan: CellSet messages of up to {@code chunkRows} rows, each after its length as a
   * 2-byte big-endian short. A chunk too long for the short is split; a single row too long cannot be sent.
   */
  static byte[] protobufStream(List<Result> results, int chunkRows) {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    int step = Math.max(1, chunkRows);
    for (int from = 0; from < results.size(); from += step) {
      writeChunk(out, results.subList(from, Math.min(results.size(), from + step)));
    }
    return out.toByteArray();
  }

  private static void writeChunk(java.io.ByteArrayOutputStream out, List<Result> rows) {
    byte[] message = CellSetCodec.protobuf(CellSet.of(rows));
    if (message.length <= Short.MAX_VALUE) {
      out.write(message.length >>> 8);
      out.write(message.length & 0xFF);
      out.writeBytes(message);
    } else if (rows.size() > 1) {
      writeChunk(out, rows.subList(0, rows.size() / 2));
      writeChunk(out, rows.subList(rows.size() / 2, rows.size()));
    } else {
      throw RestException.notAcceptable("row " + Bytes.toStringBinary(rows.get(0).getRow()) + " is over "
          + Short.MAX_VALUE + " bytes, too long for the streamed protobuf scan: ask for JSON or XML");
    }
  }

  private static RestReply cellSetReply(CellSet set, Media media) {
    if (set.isEmpty()) {
      throw RestException.notFound("no such row");
    }
    return RestReply.ok(media, CellSetCodec.encode(set, media));
  }

  private static Get get(byte[] row, RowSpec spec) throws IOException {
    Get get = new Get(row);
    for (byte[] column : spec.columns()) {
      byte[][] parts = RowSpec.split(column);
      if (parts[1] == null) {
        get.addFamily(parts[0]);
      } else {
        get.addColumn(parts[0], parts[1]);
      }
    }
    if (spec.exactTime()) {
      get.setTimestamp(spec.endTime());
    } else {
      get.setTimeRange(spec.startTime(), spec.endTime());
    }
    get.readVersions(spec.maxVersions());
    return get;
  }

  private static void narrow(Scan scan, RowSpec spec) throws IOException {
    for (byte[] column : spec.columns()) {
      byte[][] parts = RowSpec.split(column);
      if (parts[1] == null) {
        scan.addFamily(parts[0]);
      } else {
        scan.addColumn(parts[0], parts[1]);
      }
    }
    if (spec.exactTime()) {
      scan.setTimestamp(spec.endTime());
    } else {
      scan.setTimeRange(spec.startTime(), spec.endTime());
    }
    scan.readVersions(spec.maxVersions());
  }
}
