package io.basalt.gateway.thrift;

import static io.basalt.gateway.thrift.ThriftConversions.bytes;
import static io.basalt.gateway.thrift.ThriftConversions.column;
import static io.basalt.gateway.thrift.ThriftConversions.qualifierOrEmpty;
import static io.basalt.gateway.thrift.TableAdminCalls.tableName;

import io.basalt.gateway.thrift.generated.AlreadyExists;
import io.basalt.gateway.thrift.generated.BatchMutation;
import io.basalt.gateway.thrift.generated.ColumnDescriptor;
import io.basalt.gateway.thrift.generated.Hbase;
import io.basalt.gateway.thrift.generated.IOError;
import io.basalt.gateway.thrift.generated.IllegalArgument;
import io.basalt.gateway.thrift.generated.Mutation;
import io.basalt.gateway.thrift.generated.TAccessControlEntity;
import io.basalt.gateway.thrift.generated.TAppend;
import io.basalt.gateway.thrift.generated.TCell;
import io.basalt.gateway.thrift.generated.TIncrement;
import io.basalt.gateway.thrift.generated.TRegionInfo;
import io.basalt.gateway.thrift.generated.TRowResult;
import io.basalt.gateway.thrift.generated.TScan;
import io.basalt.gateway.thrift.generated.TThriftServerType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.OperationWithAttributes;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.WhileMatchFilter;

/**
 * HBase's Thrift 1 service over the HBase client, with the semantics of HBase's own gateway
 * (ThriftHBaseServiceHandler): "Ts" reads see [0, ts), deletes at a timestamp remove everything up to it,
 * a row's deletes are applied before its puts, errors are IOError / IllegalArgument / AlreadyExists.
 */
public final class ThriftHandler implements Hbase.Iface, AutoCloseable {
  private final Connection connection;
  private final TableAdminCalls admin;
  private final ScannerTable scanners;

  public ThriftHandler(Connection connection, long scannerLeaseMillis) {
    this.connection = connection;
    this.admin = new TableAdminCalls(connection);
    this.scanners = new ScannerTable(scannerLeaseMillis * 1_000_000L, System::nanoTime);
  }

  /** Open scanners (a gauge). */
  public int openScanners() {
    return scanners.size();
  }

  @FunctionalInterface
  private interface TableCall<T> {
    T apply(Table table) throws IOException;
  }

  /** Runs a call on the table; every failure is the IOError HBase's gateway would send. */
  private <T> T onTable(ByteBuffer table, TableCall<T> call) throws IOError {
    try (Table t = connection.getTable(tableName(table))) {
      return call.apply(t);
    } catch (IOException | IllegalArgumentException e) {
      throw ThriftErrors.io(e);
    }
  }

  /** The same for calls that declare IllegalArgument: a malformed argument is reported as one. */
  private <T> T onTableChecked(ByteBuffer table, TableCall<T> call) throws IOError, IllegalArgument {
    try (Table t = connection.getTable(tableName(table))) {
      return call.apply(t);
    } catch (IllegalArgumentException e) {
      throw ThriftErrors.illegalArgument(e);
    } catch (IOException e) {
      throw ThriftErrors.io(e);
    }
  }

  private static <T extends OperationWithAttributes> T withAttributes(T op, Map<ByteBuffer, ByteBuffer> attributes) {
    if (attributes != null) {
      attributes.forEach((k, v) -> op.setAttribute(new String(bytes(k), java.nio.charset.StandardCharsets.UTF_8),
          bytes(v)));
    }
    return op;
  }

  // ---- tables ----

  @Override
  public void enableTable(ByteBuffer tableName) throws IOError {
    admin.enable(tableName);
  }

  @Override
  public void disableTable(ByteBuffer tableName) throws IOError {
    admin.disable(tableName);
  }

  @Override
  public boolean isTableEnabled(ByteBuffer tableName) throws IOError {
    return admin.isEnabled(tableName);
  }

  @Override
  public void compact(ByteBuffer tableNameOrRegionName) throws IOError {
    admin.compact(tableNameOrRegionName, false);
  }

  @Override
  public void majorCompact(ByteBuffer tableNameOrRegionName) throws IOError {
    admin.compact(tableNameOrRegionName, true);
  }

  @Override
  public List<ByteBuffer> getTableNames() throws IOError {
    return admin.tableNames();
  }

  @Override
  public Map<ByteBuffer, Boolean> getTableNamesWithIsTableEnabled() throws IOError {
    return admin.tableNamesWithIsEnabled();
  }

  @Override
  public Map<ByteBuffer, ColumnDescriptor> getColumnDescriptors(ByteBuffer tableName) throws IOError {
    return admin.columnDescriptors(tableName);
  }

  @Override
  public List<TRegionInfo> getTableRegions(ByteBuffer tableName) throws IOError {
    return admin.regions(tableName);
  }

  @Override
  public void createTable(ByteBuffer tableName, List<ColumnDescriptor> columnFamilies)
      throws IOError, IllegalArgument, AlreadyExists {
    admin.create(tableName, columnFamilies);
  }

  @Override
  public void deleteTable(ByteBuffer tableName) throws IOError {
    admin.delete(tableName);
  }

  @Override
  public TRegionInfo getRegionInfo(ByteBuffer row) throws IOError {
    return admin.regionOfMetaRow(row);
  }

  @Override
  public TThriftServerType getThriftServerType() {
    return TThriftServerType.ONE;
  }

  @Override
  public String getClusterId() {
    return admin.clusterId();
  }

  @Override
  public boolean grant(TAccessControlEntity info) throws IOError {
    return admin.permission(info, true);
  }

  @Override
  public boolean revoke(TAccessControlEntity info) throws IOError {
    return admin.permission(info, false);
  }

  // ---- cells and rows ----

  @Override
  public List<TCell> get(ByteBuffer tableName, ByteBuffer row, ByteBuffer column, Map<ByteBuffer, ByteBuffer> attributes)
      throws IOError {
    return getVerTs(tableName, row, column, HConstants.LATEST_TIMESTAMP, 1, attributes);
  }

  @Override
  public List<TCell> getVer(ByteBuffer tableName, ByteBuffer row, ByteBuffer column, int numVersions,
      Map<ByteBuffer, ByteBuffer> attributes) throws IOError {
    return getVerTs(tableName, row, column, HConstants.LATEST_TIMESTAMP, numVersions, attributes);
  }

  @Override
  public List<TCell> getVerTs(ByteBuffer tableName, ByteBuffer row, ByteBuffer column, long timestamp, int numVersions,
      Map<ByteBuffer, ByteBuffer> attributes) throws IOError {
    return onTable(tableName, t -> {
      Get get = withAttributes(new Get(bytes(row)), attributes);
      byte[][] fq = column(column);
      if (fq.length == 1) {
        get.addFamily(fq[0]);
      } else {
        get.addColumn(fq[0], fq[1]);
      }
      if (timestamp != HConstants.LATEST_TIMESTAMP) {
        get.setTimeRange(0, timestamp);
      }
      get.readVersions(numVersions);
      return ThriftConversions.cells(t.get(get).rawCells());
    });
  }

  @Override
  public List<TRowResult> getRow(ByteBuffer tableName, ByteBuffer row, Map<ByteBuffer, ByteBuffer> attributes)
      throws IOError {
    return getRowsWithColumnsTs(tableName, List.of(row), null, HConstants.LATEST_TIMESTAMP, attributes);
  }

  @Override
  public List<TRowResult> getRowWithColumns(ByteBuffer tableName, ByteBuffer row, List<ByteBuffer> columns,
      Map<ByteBuffer, ByteBuffer> attributes) throws IOError {
    return getRowsWithColumnsTs(tableName, List.of(row), columns, HConstants.LATEST_TIMESTAMP, attributes);
  }

  @Override
  public List<TRowResult> getRowTs(ByteBuffer tableName, ByteBuffer row, long timestamp,
      Map<ByteBuffer, ByteBuffer> attributes) throws IOError {
    return getRowsWithColumnsTs(tableName, List.of(row), null, timestamp, attributes);
  }

  @Override
  public List<TRowResult> getRowWithColumnsTs(ByteBuffer tableName, ByteBuffer row, List<ByteBuffer> columns,
      long timestamp, Map<ByteBuffer, ByteBuffer> attributes) throws IOError {
    return getRowsWithColumnsTs(tableName, List.of(row), columns, timestamp, attributes);
  }

  @Override
  public List<TRowResult> getRows(ByteBuffer tableName, List<ByteBuffer> rows, Map<ByteBuffer, ByteBuffer> attributes)
      throws IOError {
    return getRowsWithColumnsTs(tableName, rows, null, HConstants.LATEST_TIMESTAMP, attributes);
  }

  @Override
  public List<TRowResult> getRowsWithColumns(ByteBuffer tableName, List<ByteBuffer> rows, List<ByteBuffer> columns,
      Map<ByteBuffer, ByteBuffer> attributes) throws IOError {
    return getRowsWithColumnsTs(tableName, rows, columns, HConstants.LATEST_TIMESTAMP, attributes);
  }

  @Override
  public List<TRowResult> getRowsTs(ByteBuffer tableName, List<ByteBuffer> rows, long timestamp,
      Map<ByteBuffer, ByteBuffer> attributes) throws IOError {
    return getRowsWithColumnsTs(tableName, rows, null, timestamp, attributes);
  }

  @Override
  public List<TRowResult> getRowsWithColumnsTs(ByteBuffer tableName, List<ByteBuffer> rows, List<ByteBuffer> columns,
      long timestamp, Map<ByteBuffer, ByteBuffer> attributes) throws IOError {
    return onTable(tableName, t -> {
      List<Get> gets = new ArrayList<>();
      for (ByteBuffer row : rows == null ? List.<ByteBuffer>of() : rows) {
        Get get = withAttributes(new Get(bytes(row)), attributes);
        ThriftConversions.addColumns(get, columns);
        get.setTimeRange(0, timestamp);
        gets.add(get);
      }
      return ThriftConversions.rows(t.get(gets), false);
    });
  }

  // ---- mutations ----

  @Override
  public void mutateRow(ByteBuffer tableName, ByteBuffer row, List<Mutation> mutations,
      Map<ByteBuffer, ByteBuffer> attributes) throws IOError, IllegalArgument {
    mutateRowTs(tableName, row, mutations, HConstants.LATEST_TIMESTAMP, attributes);
  }

  @Override
  public void mutateRowTs(ByteBuffer tableName, ByteBuffer row, List<Mutation> mutations, long timestamp,
      Map<ByteBuffer, ByteBuffer> attributes) throws IOError, IllegalArgument {
    onTableChecked(tableName, t -> {
      RowMutations m = RowMutations.of(bytes(row), mutations, timestamp, attributes);
      if (!m.delete.isEmpty()) {
        t.delete(m.delete);
      }
      if (!m.put.isEmpty()) {
        t.put(m.put);
      }
      return null;
    });
  }

  @Override
  public void mutateRows(ByteBuffer tableName, List<BatchMutation> rowBatches, Map<ByteBuffer, ByteBuffer> attributes)
      throws IOError, IllegalArgument {
    mutateRowsTs(tableName, rowBatches, HConstants.LATEST_TIMESTAMP, attributes);
  }

  @Override
  public void mutateRowsTs(ByteBuffer tableName, List<BatchMutation> rowBatches, long timestamp,
      Map<ByteBuffer, ByteBuffer> attributes) throws IOError, IllegalArgument {
    onTableChecked(tableName, t -> {
      List<Put> puts = new ArrayList<>();
      List<Delete> deletes = new ArrayList<>();
      for (BatchMutation batch : rowBatches == null ? List.<BatchMutation>of() : rowBatches) {
        RowMutations m = RowMutations.of(batch.getRow(), batch.getMutations(), timestamp, attributes);
        if (!m.delete.isEmpty()) {
          deletes.add(m.delete);
        }
        if (!m.put.isEmpty()) {
          puts.add(m.put);
        }
      }
      if (!puts.isEmpty()) {
        t.put(puts);
      }
      if (!deletes.isEmpty()) {
        t.delete(deletes);
      }
      return null;
    });
  }

  /** One row's Thrift mutations as a Put and a Delete, both at {@code timestamp}. */
  private record RowMutations(Put put, Delete delete) {
    static RowMutations of(byte[] row, List<Mutation> mutations, long timestamp, Map<ByteBuffer, ByteBuffer> attributes) {
      Put put = withAttributes(new Put(row, timestamp), attributes);
      Delete delete = withAttributes(new Delete(row), attributes);
      for (Mutation m : mutations == null ? List.<Mutation>of() : mutations) {
        byte[][] fq = column(ByteBuffer.wrap(m.getColumn() == null ? new byte[0] : m.getColumn()));
        Durability durability = m.isWriteToWAL() ? Durability.SYNC_WAL : Durability.SKIP_WAL;
        if (m.isIsDelete()) {
          if (fq.length == 1) {
            delete.addFamily(fq[0], timestamp);
          } else {
            delete.addColumns(fq[0], fq[1], timestamp);
          }
          delete.setDurability(durability);
        } else {
          if (fq.length == 1) {
            throw new IllegalArgumentException("no column qualifier in " + new String(m.getColumn(),
                java.nio.charset.StandardCharsets.UTF_8) + ": a whole family can only be deleted");
          }
          put.addColumn(fq[0], fq[1], timestamp, m.getValue() == null ? HConstants.EMPTY_BYTE_ARRAY : m.getValue());
          put.setDurability(durability);
        }
      }
      return new RowMutations(put, delete);
    }
  }

  @Override
  public long atomicIncrement(ByteBuffer tableName, ByteBuffer row, ByteBuffer column, long value)
      throws IOError, IllegalArgument {
    return onTableChecked(tableName, t -> {
      byte[][] fq = column(column);
      return t.incrementColumnValue(bytes(row), fq[0], qualifierOrEmpty(fq), value);
    });
  }

  @Override
  public void increment(TIncrement increment) throws IOError {
    incrementRows(List.of(increment));
  }

  @Override
  public void incrementRows(List<TIncrement> increments) throws IOError {
    for (TIncrement inc : increments == null ? List.<TIncrement>of() : increments) {
      onTable(ByteBuffer.wrap(inc.getTable()), t -> {
        byte[][] fq = column(ByteBuffer.wrap(inc.getColumn()));
        return t.increment(new Increment(inc.getRow()).addColumn(fq[0], qualifierOrEmpty(fq), inc.getAmmount()));
      });
    }
  }

  @Override
  public List<TCell> append(TAppend append) throws IOError {
    return onTable(ByteBuffer.wrap(append.getTable()), t -> {
      Append a = new Append(append.getRow());
      List<ByteBuffer> columns = append.getColumns();
      List<ByteBuffer> values = append.getValues();
      if (columns == null || values == null || columns.size() != values.size()) {
        throw new IllegalArgumentException("an append needs as many values as columns");
      }
      for (int i = 0; i < columns.size(); i++) {
        byte[][] fq = column(columns.get(i));
        a.addColumn(fq[0], qualifierOrEmpty(fq), bytes(values.get(i)));
      }
      return ThriftConversions.cells(t.append(a).rawCells());
    });
  }

  @Override
  public boolean checkAndPut(ByteBuffer tableName, ByteBuffer row, ByteBuffer column, ByteBuffer value, Mutation mput,
      Map<ByteBuffer, ByteBuffer> attributes) throws IOError, IllegalArgument {
    return onTableChecked(tableName, t -> {
      byte[] r = bytes(row);
      byte[][] put = column(ByteBuffer.wrap(mput.getColumn()));
      Put p = withAttributes(new Put(r), attributes)
          .addColumn(put[0], qualifierOrEmpty(put), mput.getValue() == null ? HConstants.EMPTY_BYTE_ARRAY : mput.getValue());
      p.setDurability(mput.isWriteToWAL() ? Durability.SYNC_WAL : Durability.SKIP_WAL);
      byte[][] check = column(column);
      CheckAndMutate.Builder b = CheckAndMutate.newBuilder(r);
      CheckAndMutate cam = value == null ? b.ifNotExists(check[0], qualifierOrEmpty(check)).build(p)
          : b.ifEquals(check[0], qualifierOrEmpty(check), bytes(value)).build(p);
      return t.checkAndMutate(cam).isSuccess();
    });
  }

  @Override
  public void deleteAll(ByteBuffer tableName, ByteBuffer row, ByteBuffer column, Map<ByteBuffer, ByteBuffer> attributes)
      throws IOError {
    deleteAllTs(tableName, row, column, HConstants.LATEST_TIMESTAMP, attributes);
  }

  @Override
  public void deleteAllTs(ByteBuffer tableName, ByteBuffer row, ByteBuffer column, long timestamp,
      Map<ByteBuffer, ByteBuffer> attributes) throws IOError {
    onTable(tableName, t -> {
      Delete d = withAttributes(new Delete(bytes(row)), attributes);
      byte[][] fq = column(column);
      if (fq.length == 1) {
        d.addFamily(fq[0], timestamp);
      } else {
        d.addColumns(fq[0], fq[1], timestamp);
      }
      t.delete(d);
      return null;
    });
  }

  @Override
  public void deleteAllRow(ByteBuffer tableName, ByteBuffer row, Map<ByteBuffer, ByteBuffer> attributes) throws IOError {
    deleteAllRowTs(tableName, row, HConstants.LATEST_TIMESTAMP, attributes);
  }

  @Override
  public void deleteAllRowTs(ByteBuffer tableName, ByteBuffer row, long timestamp,
      Map<ByteBuffer, ByteBuffer> attributes) throws IOError {
    onTable(tableName, t -> {
      t.delete(withAttributes(new Delete(bytes(row), timestamp), attributes));
      return null;
    });
  }

  // ---- scanners ----

  private int open(ByteBuffer tableName, Scan scan, boolean sortColumns, Map<ByteBuffer, ByteBuffer> attributes)
      throws IOError {
    ResultScanner scanner = onTable(tableName, t -> t.getScanner(withAttributes(scan, attributes)));
    return scanners.add(scanner, sortColumns);
  }

  @Override
  public int scannerOpenWithScan(ByteBuffer tableName, TScan tScan, Map<ByteBuffer, ByteBuffer> attributes)
      throws IOError {
    Scan scan;
    try {
      scan = ThriftConversions.scan(tScan);
    } catch (IOException | IllegalArgumentException e) {
      throw ThriftErrors.io(e);
    }
    return open(tableName, scan, tScan.isSetSortColumns() && tScan.isSortColumns(), attributes);
  }

  @Override
  public int scannerOpen(ByteBuffer tableName, ByteBuffer startRow, List<ByteBuffer> columns,
      Map<ByteBuffer, ByteBuffer> attributes) throws IOError {
    return scannerOpenWithStopTs(tableName, startRow, null, columns, HConstants.LATEST_TIMESTAMP, attributes);
  }

  @Override
  public int scannerOpenWithStop(ByteBuffer tableName, ByteBuffer startRow, ByteBuffer stopRow, List<ByteBuffer> columns,
      Map<ByteBuffer, ByteBuffer> attributes) throws IOError {
    return scannerOpenWithStopTs(tableName, startRow, stopRow, columns, HConstants.LATEST_TIMESTAMP, attributes);
  }

  @Override
  public int scannerOpenWithPrefix(ByteBuffer tableName, ByteBuffer startAndPrefix, List<ByteBuffer> columns,
      Map<ByteBuffer, ByteBuffer> attributes) throws IOError {
    byte[] prefix = bytes(startAndPrefix);
    Scan scan = new Scan().withStartRow(prefix).setFilter(new WhileMatchFilter(new PrefixFilter(prefix)));
    try {
      ThriftConversions.addColumns(scan, columns);
    } catch (IllegalArgumentException e) {
      throw ThriftErrors.io(e);
    }
    return open(tableName, scan, false, attributes);
  }

  @Override
  public int scannerOpenTs(ByteBuffer tableName, ByteBuffer startRow, List<ByteBuffer> columns, long timestamp,
      Map<ByteBuffer, ByteBuffer> attributes) throws IOError {
    return scannerOpenWithStopTs(tableName, startRow, null, columns, timestamp, attributes);
  }

  @Override
  public int scannerOpenWithStopTs(ByteBuffer tableName, ByteBuffer startRow, ByteBuffer stopRow,
      List<ByteBuffer> columns, long timestamp, Map<ByteBuffer, ByteBuffer> attributes) throws IOError {
    Scan scan = new Scan().withStartRow(bytes(startRow) == null ? HConstants.EMPTY_START_ROW : bytes(startRow));
    if (stopRow != null) {
      scan.withStopRow(bytes(stopRow));
    }
    try {
      scan.setTimeRange(0, timestamp);
      if (columns != null && !columns.isEmpty()) {
        ThriftConversions.addColumns(scan, columns);
      }
    } catch (IOException | IllegalArgumentException e) {
      throw ThriftErrors.io(e);
    }
    return open(tableName, scan, false, attributes);
  }

  @Override
  public List<TRowResult> scannerGet(int id) throws IOError, IllegalArgument {
    return scannerGetList(id, 1);
  }

  @Override
  public List<TRowResult> scannerGetList(int id, int nbRows) throws IOError, IllegalArgument {
    ScannerTable.Entry entry = scanners.get(id);
    if (entry == null) {
      throw ThriftErrors.illegalArgument("scanner ID is invalid");
    }
    try {
      Result[] results = entry.scanner().next(Math.max(nbRows, 0));
      return ThriftConversions.rows(results, entry.sortColumns());
    } catch (IOException e) {
      throw ThriftErrors.io(e);
    }
  }

  @Override
  public void scannerClose(int id) throws IllegalArgument {
    if (!scanners.close(id)) {
      throw ThriftErrors.illegalArgument("scanner ID is invalid");
    }
  }

  @Override
  public void close() {
    scanners.close();
  }
}
