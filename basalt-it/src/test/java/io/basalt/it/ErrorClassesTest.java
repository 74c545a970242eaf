package io.basalt.it;

import static io.basalt.it.Fixtures.CF;
import static io.basalt.it.Fixtures.Q;
import static io.basalt.it.Fixtures.b;
import static io.basalt.it.Fixtures.createTable;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.it.target.BothTargets;
import java.io.IOException;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotDisabledException;
import org.apache.hadoop.hbase.TableNotEnabledException;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.InvalidFamilyOperationException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.junit.jupiter.api.Timeout;

/** The exception classes applications catch for common mistakes. */
@Timeout(120)
class ErrorClassesTest {
  @BothTargets
  void missingTable(Connection conn) throws IOException {
    TableName missing = TableName.valueOf("err_missing");
    try (Admin admin = conn.getAdmin(); Table table = conn.getTable(missing)) {
      assertThatThrownBy(() -> table.get(new Get(b("r")))).isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> table.put(new Put(b("r")).addColumn(CF, Q, b("v")))).isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> table.getScanner(new Scan()).next()).isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> admin.getDescriptor(missing)).isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> admin.disableTable(missing)).isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> admin.deleteTable(missing)).isInstanceOf(TableNotFoundException.class);
      assertThatThrownBy(() -> admin.addColumnFamily(missing, ColumnFamilyDescriptorBuilder.of("x")))
          .isInstanceOf(TableNotFoundException.class);
    }
  }

  @BothTargets
  void tableStateErrors(Connection conn) throws IOException {
    TableName t = createTable(conn, "err_state");
    try (Admin admin = conn.getAdmin()) {
      assertThatThrownBy(() -> admin.createTable(TableDescriptorBuilder.newBuilder(t)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF)).build())).isInstanceOf(TableExistsException.class);
      assertThatThrownBy(() -> admin.deleteTable(t)).isInstanceOf(TableNotDisabledException.class);
      assertThatThrownBy(() -> admin.enableTable(t)).isInstanceOf(TableNotDisabledException.class);
      admin.disableTable(t);
      assertThatThrownBy(() -> admin.disableTable(t)).isInstanceOf(TableNotEnabledException.class);
      admin.enableTable(t);
      assertThatThrownBy(() -> admin.createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf("err_no_ns:t"))
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF)).build())).isInstanceOf(NamespaceNotFoundException.class);
      assertThatThrownBy(() -> admin.deleteColumnFamily(t, b("nope"))).isInstanceOf(InvalidFamilyOperationException.class);
      assertThatThrownBy(() -> admin.addColumnFamily(t, ColumnFamilyDescriptorBuilder.of(CF)))
          .isInstanceOf(InvalidFamilyOperationException.class);
    }
  }

  @BothTargets
  void unknownFamily(Connection conn) throws IOException {
    try (Table table = conn.getTable(createTable(conn, "err_family"))) {
      table.put(new Put(b("r")).addColumn(CF, Q, b("v")));
      assertThatThrownBy(() -> table.put(new Put(b("r")).addColumn(b("nope"), Q, b("v"))))
          .isInstanceOf(NoSuchColumnFamilyException.class);
      assertThatThrownBy(() -> table.get(new Get(b("r")).addFamily(b("nope")))).isInstanceOf(NoSuchColumnFamilyException.class);
      assertThatThrownBy(() -> table.getScanner(new Scan().addFamily(b("nope"))).next())
          .isInstanceOf(NoSuchColumnFamilyException.class);
    }
  }

  @BothTargets
  void emptyRowKeyIsRejectedByTheClient(Connection conn) throws IOException {
    try (Table table = conn.getTable(createTable(conn, "err_empty_row"))) {
      assertThatThrownBy(() -> table.put(new Put(new byte[0]).addColumn(CF, Q, b("v"))))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
