package io.basalt.it;

import static io.basalt.it.Fixtures.CF;
import static io.basalt.it.Fixtures.b;
import static io.basalt.it.Fixtures.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.it.target.BothTargets;
import io.basalt.it.target.ClusterTarget;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Timeout;

/** Create, write, read, scan, delete and drop a table through each of the client's two registries. */
@Timeout(120)
class RoundTripTest {
  @BothTargets
  void throughZooKeeperRegistry(ClusterTarget target) throws Exception {
    roundTrip(target.clientConfiguration(), TableName.valueOf("rt_zk"));
  }

  @BothTargets
  void throughRpcRegistry(ClusterTarget target) throws Exception {
    roundTrip(target.rpcRegistryConfiguration(), TableName.valueOf("rt_rpc"));
  }

  private static void roundTrip(Configuration conf, TableName name) throws Exception {
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(CF).setMaxVersions(3).build()).build(),
          new byte[][] {b("m")});
      assertThat(admin.tableExists(name)).isTrue();
      assertThat(admin.isTableEnabled(name)).isTrue();
      assertThat(admin.getRegions(name)).hasSize(2);
      assertThatThrownBy(() -> admin.createTable(TableDescriptorBuilder.newBuilder(name)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF)).build())).isInstanceOf(TableExistsException.class);

      try (Table table = conn.getTable(name)) {
        List<Put> puts = new ArrayList<>();
        for (String row : List.of("apple", "avocado", "banana", "mango", "zucchini")) {
          puts.add(new Put(b(row)).addColumn(CF, b("q"), b("v-" + row)));
        }
        table.put(puts);
        table.put(new Put(b("apple")).addColumn(CF, b("q"), 5L, b("old")));

        Result r = table.get(new Get(b("apple")).readVersions(3));
        assertThat(r.getColumnCells(CF, b("q"))).hasSize(2);
        assertThat(Bytes.toString(r.getValue(CF, b("q")))).isEqualTo("v-apple");
        assertThat(table.exists(new Get(b("nothing")))).isFalse();

        assertThat(rows(table, new Scan())).containsExactly("apple", "avocado", "banana", "mango", "zucchini");
        assertThat(rows(table, new Scan().setFilter(new PrefixFilter(b("a"))))).containsExactly("apple", "avocado");
        assertThat(rows(table, new Scan().setReversed(true)))
            .containsExactly("zucchini", "mango", "banana", "avocado", "apple");

        table.delete(new Delete(b("banana")));
        assertThat(table.get(new Get(b("banana"))).isEmpty()).isTrue();
        assertThat(table.incrementColumnValue(b("counter"), CF, b("n"), 5)).isEqualTo(5);
        assertThat(table.incrementColumnValue(b("counter"), CF, b("n"), 2)).isEqualTo(7);
      }

      admin.disableTable(name);
      assertThat(admin.isTableDisabled(name)).isTrue();
      admin.deleteTable(name);
      assertThat(admin.tableExists(name)).isFalse();
      assertThatThrownBy(() -> admin.disableTable(name)).isInstanceOf(TableNotFoundException.class);
    }
  }
}
