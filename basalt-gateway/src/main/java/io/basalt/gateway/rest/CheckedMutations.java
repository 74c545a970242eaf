package io.basalt.gateway.rest;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The {@code ?check=} forms of PUT/POST on a row, with HBase's RowResource conventions: for {@code put} and
 * {@code delete} the CellSet's last cell is the condition (its column must hold exactly its value) and the cells
 * before it are the mutation; a failed condition answers 304. {@code increment} adds each cell's value (a
 * decimal number) to its column and {@code append} appends it; {@code ?returnResult=true} returns the new cells.
 */
final class CheckedMutations {
  private final Connection connection;

  CheckedMutations(Connection connection) {
    this.connection = connection;
  }

  RestReply apply(RestRequest req, TableName name, RowSpec spec, String check) throws IOException {
    CellSet set = CellSetCodec.decode(req.body(), req.content());
    if (set.rows().size() != 1) {
      throw RestException.badRequest("check=" + check + " takes exactly one row, not " + set.rows().size());
    }
    CellSet.Row row = set.rows().get(0);
    byte[] key = row.key() != null ? row.key() : spec.row();
    List<CellSet.Cell> cells = row.cells();
    if (cells.isEmpty()) {
      throw RestException.badRequest("check=" + check + " needs cells");
    }
    try (Table table = connection.getTable(name)) {
      return switch (check.toLowerCase(java.util.Locale.ROOT)) {
        case "put" -> checkAndPut(table, key, cells);
        case "delete" -> checkAndDelete(table, key, cells, spec);
        case "increment" -> returning(req, increment(table, key, cells));
        case "append" -> returning(req, append(table, key, cells));
        default -> throw RestException.badRequest("invalid check value '" + check + "'");
      };
    }
  }

  private static RestReply checkAndPut(Table table, byte[] key, List<CellSet.Cell> cells) throws IOException {
    if (cells.size() < 2) {
      throw RestException.badRequest("check=put needs the cells to put and, last, the cell to check");
    }
    CellSet.Cell condition = cells.get(cells.size() - 1);
    byte[][] checked = qualified(condition.column());
    Put put = new Put(key);
    boolean putsChecked = false;
    for (CellSet.Cell cell : cells.subList(0, cells.size() - 1)) {
      byte[][] parts = qualified(cell.column());
      put.addColumn(parts[0], parts[1], cell.timestamp(), cell.value());
      putsChecked |= Arrays.equals(cell.column(), condition.column());
    }
    if (!putsChecked) {
      throw RestException.badRequest("the column to put and the column to check do not match");
    }
    boolean done = table.checkAndMutate(key, checked[0]).qualifier(checked[1]).ifEquals(condition.value())
        .thenPut(put);
    return done ? RestReply.empty(200) : RestReply.empty(304);
  }

  private static RestReply checkAndDelete(Table table, byte[] key, List<CellSet.Cell> cells, RowSpec spec)
      throws IOException {
    CellSet.Cell condition = cells.get(cells.size() - 1);
    byte[] column = condition.column() != null ? condition.column()
        : spec.columns().isEmpty() ? null : spec.columns().get(0);
    if (column == null) {
      throw RestException.badRequest("no column to check");
    }
    byte[][] checked = qualified(column);
    Delete delete = new Delete(key);
    for (CellSet.Cell cell : cells.subList(0, cells.size() - 1)) {
      byte[][] parts = RowSpec.split(cell.column());
      if (parts[1] == null) {
        delete.addFamily(parts[0]);
      } else if (cell.timestamp() == HConstants.LATEST_TIMESTAMP) {
        delete.addColumn(parts[0], parts[1]);
      } else {
        delete.addColumn(parts[0], parts[1], cell.timestamp());
      }
    }
    if (cells.size() == 1) {
      // Only the condition given: it names the cell to delete, as HBase's gateway reads it.
      delete.addColumn(checked[0], checked[1]);
    }
    boolean done = table.checkAndMutate(key, checked[0]).qualifier(checked[1]).ifEquals(condition.value())
        .thenDelete(delete);
    return done ? RestReply.empty(200) : RestReply.empty(304);
  }

  private static Result increment(Table table, byte[] key, List<CellSet.Cell> cells) throws IOException {
    Increment increment = new Increment(key);
    for (CellSet.Cell cell : cells) {
      byte[][] parts = qualified(cell.column());
      increment.addColumn(parts[0], parts[1], CellSetCodec.parseLong(Bytes.toString(cell.value()), "increment"));
    }
    return table.increment(increment);
  }

  private static Result append(Table table, byte[] key, List<CellSet.Cell> cells) throws IOException {
    Append append = new Append(key);
    for (CellSet.Cell cell : cells) {
      byte[][] parts = qualified(cell.column());
      append.addColumn(parts[0], parts[1], cell.value());
    }
    return table.append(append);
  }

  private static RestReply returning(RestRequest req, Result result) {
    if (!"true".equalsIgnoreCase(req.param("returnResult"))) {
      return RestReply.empty(200);
    }
    Media media = req.accepted(Media.XML);
    return RestReply.ok(media, CellSetCodec.encode(CellSet.of(List.of(result)), media));
  }

  private static byte[][] qualified(byte[] column) {
    if (column == null) {
      throw RestException.badRequest("a cell without its column");
    }
    byte[][] parts = RowSpec.split(column);
    if (parts[1] == null) {
      throw RestException.badRequest("column \"" + Bytes.toStringBinary(column) + "\" needs FAMILY:QUALIFIER");
    }
    return parts;
  }
}
